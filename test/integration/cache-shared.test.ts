// The cache is shared with the world (issue 23): administrators open it with the sqlite3 shell,
// scripts and backup tools while Eventwatch runs, and several Eventwatch processes open it at
// once. Real processes on a real file: nothing is lost, nobody keeps a user who was removed, and
// the file passes integrity_check afterwards.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CancelledError } from '../../src/main/core/net/abort'
import { backupCache } from '../../src/main/core/store/backup'
import { openDatabase } from '../../src/main/core/store/db'
import { latestSchema } from '../../src/main/core/store/migrate'
import { homeEnv, ROOT } from '../support/cli'
import { runCli, startCli } from '../support/cli-processes'
import { addUserByCli, freePort, statusWith } from '../support/cli-team'
import { descriptorsOn, pythonQuery, sqliteShell } from '../support/other-sqlite-clients'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-cache-shared-')

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('another SQLite client reading the cache while the team server runs', () => {
  it('leaves the server on the live -wal: a removed user is out, an added one in, and the file is whole after', async () => {
    const dir = newDir()
    const file = join(dir, 'team.db')
    const env = homeEnv(dir)
    const bob = await addUserByCli(file, 'bob', env)
    const port = await freePort()
    const serve = startCli(['serve', '--listen', `127.0.0.1:${port}`, '--db', file, '--interval', '1'], env)
    try {
      const [, origin] = await serve.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)/)
      expect(await statusWith(origin!, bob)).toBe(200)
      // The cache writer's thread opens its own connection with the first viewer list.
      await until(() => descriptorsOn(serve.pid, file).filter((d) => d === file).length >= 2, 'the cache writer to open the file')

      // An administrator's look at the file, from two other SQLite programs, each closing after.
      expect(await sqliteShell(file, 'SELECT name FROM users;')).toBe('bob\n')
      expect(await pythonQuery(file, 'SELECT name FROM users')).toEqual([['bob']])
      expect(descriptorsOn(serve.pid, file).filter((d) => d.endsWith('(deleted)'))).toEqual([])

      expect((await runCli(['users', 'remove', 'bob', '--db', file], env)).stdout).toBe('Removed bob.\n')
      expect(await statusWith(origin!, bob)).toBe(401)
      const carol = await addUserByCli(file, 'carol', env)
      expect(await statusWith(origin!, carol)).toBe(200)
    } finally {
      const exit = await serve.stop()
      expect(exit.code, serve.output().stderr).toBe(0)
    }
    expect(await sqliteShell(file, 'PRAGMA integrity_check;')).toBe('ok\n')
    expect(await pythonQuery(file, 'SELECT name FROM users')).toEqual([['carol']])
  }, 90_000)
})

describe('several processes opening a brand-new cache at once', () => {
  /** Two processes that open `file` at the same instant; what each printed. */
  async function racePair(file: string): Promise<{ code: number | null; stdout: string; stderr: string }[]> {
    const at = Date.now() + 2500 // after both have started (tsx takes about a second)
    const opener = join(ROOT, 'test', 'support', 'processes', 'open-cache-at.ts')
    const runs = [0, 1].map(
      () =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, ['--import', 'tsx', opener, file, String(at)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
          let stdout = ''
          let stderr = ''
          child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
          child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
          child.on('close', (code) => resolve({ code, stdout, stderr }))
        })
    )
    return Promise.all(runs)
  }

  it('migrates under the write lock: in five pairs, both of each open it and find the newest schema', async () => {
    const dir = newDir()
    const pairs = await Promise.all([1, 2, 3, 4, 5].map((n) => racePair(join(dir, `new-${n}.db`))))
    for (const pair of pairs) {
      for (const opened of pair) {
        expect(opened.stderr).toBe('')
        expect(opened).toMatchObject({ code: 0, stdout: `${latestSchema()}\n` })
      }
    }
    for (const n of [1, 2, 3, 4, 5]) expect(await sqliteShell(join(dir, `new-${n}.db`), 'PRAGMA integrity_check;')).toBe('ok\n')
  }, 90_000)
})

describe('a new cache file', () => {
  it('is for its user only: the file, its -wal and -shm are 0600, a new folder 0700', () => {
    const dir = join(newDir(), 'config', 'eventwatch')
    const file = join(dir, 'eventwatch.db')
    const db = openDatabase(file)
    try {
      db.prepare('INSERT INTO settings (key, value_json) VALUES (?, ?)').run('probe', '1')
      for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(path).mode & 0o777, path).toBe(0o600)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
    } finally {
      db.close()
    }
  })
})

describe('eventwatch backup', () => {
  it('copies the cache while a writer goes on: one whole file of the snapshot, 0600, refused over an existing file', async () => {
    const dir = newDir()
    const file = join(dir, 'cache.db')
    const env = homeEnv(dir)
    const writer = openDatabase(file)
    try {
      writer.prepare('INSERT INTO settings (key, value_json) VALUES (?, ?)').run('before', '1')
      const copy = join(dir, 'copy.db')
      const done = await runCli(['backup', copy, '--db', file], env)
      expect(done.code, done.stderr).toBe(0)
      expect(done.stdout).toMatch(new RegExp(`^Backed up ${file} to ${copy} \\(\\d+(\\.\\d)? MB\\)\\.\\n$`))
      writer.prepare('INSERT INTO settings (key, value_json) VALUES (?, ?)').run('after', '1')

      expect(await sqliteShell(copy, "PRAGMA integrity_check; PRAGMA journal_mode; SELECT key FROM settings WHERE key IN ('before', 'after');")).toBe('ok\ndelete\nbefore\n')
      expect(await sqliteShell(copy, 'PRAGMA user_version;')).toBe(`${latestSchema()}\n`)
      expect(statSync(copy).mode & 0o777).toBe(0o600)
      expect(existsSync(`${copy}.partial`)).toBe(false)

      const again = await runCli(['backup', copy, '--db', file], env)
      expect(again).toMatchObject({ code: 2, stdout: '' })
      expect(again.stderr).toBe(`eventwatch: configuration error: ${copy} exists already: choose another file name, or add --force to replace it\n`)
      expect((await runCli(['backup', copy, '--db', file, '--force'], env)).code).toBe(0)
      expect(await sqliteShell(copy, "SELECT count(*) FROM settings WHERE key = 'after';")).toBe('1\n')
      expect((await runCli(['backup', file, '--db', file, '--force'], env)).stderr).toMatch(/is the cache itself/)
    } finally {
      writer.close()
    }
  }, 60_000)

  it('stopped midway leaves no file behind', async () => {
    const dir = newDir()
    const file = join(dir, 'cache.db')
    openDatabase(file).close()
    const stop = new AbortController()
    const copying = backupCache(file, join(dir, 'copy.db'), { signal: stop.signal })
    stop.abort()
    await expect(copying).rejects.toBeInstanceOf(CancelledError)
    expect(readdirSync(dir).filter((name) => name.startsWith('copy'))).toEqual([])
  })
})
