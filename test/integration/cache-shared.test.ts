// The cache is shared with the world (issue 23): administrators open it with the sqlite3 shell,
// scripts and backup tools while Eventwatch runs, and several Eventwatch processes open it at
// once. Real processes on a real file: nothing is lost, nobody keeps a user who was removed, and
// the file passes integrity_check afterwards.
import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/core/store/db'
import { latestSchema } from '../../src/main/core/store/migrate'
import { homeEnv, ROOT } from '../support/cli'
import { runCli, startCli } from '../support/cli-processes'
import { descriptorsOn, pythonQuery, sqliteShell } from '../support/other-sqlite-clients'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-cache-shared-')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function addUser(file: string, name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const added = await runCli(['users', 'add', name, '--role', 'operator', '--db', file], env)
  expect(added.code, added.stderr).toBe(0)
  return /^(ewu_[\w-]{43})$/m.exec(added.stdout)?.[1] ?? ''
}

/** The HTTP status a request of the app API gets with this token. */
async function statusWith(origin: string, token: string): Promise<number> {
  const response = await fetch(`${origin}/api/request/listAlerts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}'
  })
  await response.body?.cancel()
  return response.status
}

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
    const bob = await addUser(file, 'bob', env)
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
      const carol = await addUser(file, 'carol', env)
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
