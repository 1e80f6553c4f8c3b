// Faults of the cache file on real files and real mounts — a full disk, a read-only file system,
// a file that is no SQLite database, a file from a newer Eventwatch — each named as a 'storage'
// error with the file and what to do (never as the service's fault), where people meet it: the
// CLI's one line and exit code, a sync pass's report and diagnostics, the app core's start.
// A file refused is left byte for byte, with no -wal or -shm beside it.
import Database from 'better-sqlite3'
import { execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, type TestContext } from 'vitest'
import { describeApiError } from '../../src/main/core/api/client'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { describeFailure } from '../../src/main/cli/errors'
import { startAppCore } from '../../src/main/core/app/start'
import { startSimulator } from '../../src/main/core/simulator/server'
import { StorageError } from '../../src/main/core/storage-faults'
import { listDiagnostics } from '../../src/main/core/store/diagnostics'
import { openDatabase } from '../../src/main/core/store/db'
import { latestSchema } from '../../src/main/core/store/migrate'
import { CacheWriterError } from '../../src/main/core/store/viewer-writer'
import { syncPass } from '../../src/main/core/sync/sync-pass'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'
import { simulatorCache } from '../support/simulator-connection'
import { tempDirs } from '../support/temp-dirs'
import { storesOf } from '../support/poll-stores'

const newDir = tempDirs('eventwatch-store-faults-')

// The words, exactly as people read them.
const ELSEWHERE = 'use another cache file (--db FILE or EVENTWATCH_DB)'
const FULL = (file: string) => `the disk holding ${file} is full: free some space or ${ELSEWHERE}`
const READ_ONLY = (file: string) => `${file} is on a read-only file system: remount it read-write or ${ELSEWHERE}`
const NOT_A_DATABASE = (file: string) =>
  `${file} is not an Eventwatch cache (not a SQLite database): move it away or ${ELSEWHERE}; the file was not changed`
const LOCKED = (file: string) =>
  `${file} is locked by another program (still busy after waiting): close the other program using it (another Eventwatch?) or ${ELSEWHERE}`
const TOO_NEW = (file: string, found: number, known: number) =>
  `${file} was written by a newer Eventwatch (schema ${found}, this build knows ${known}): upgrade Eventwatch or ${ELSEWHERE}; the file was not changed`

/** `eventwatch ARGS` in a home of its own: its exit code and the last line of its stderr. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; line: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv({ ...homeEnv(newDir()), ...env }), stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, line: stderr.trim().split('\n').at(-1) ?? '', stderr }
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex')
const sidecars = (file: string): string[] => ['-wal', '-shm', '-journal'].filter((suffix) => existsSync(file + suffix))

/**
 * A tmpfs of `size` mounted on a new folder, unmounted when the test ends; the test is skipped,
 * saying why, where mounting is not allowed (it needs root, as in CI and this project's box).
 */
function tmpfs(ctx: TestContext, size: string): string {
  // The reporter does not print a skip's note: say it on stderr too.
  const skip = (why: string): never => {
    console.warn(`skipped "${ctx.task.name}": ${why}`)
    return ctx.skip(why)
  }
  if (process.getuid?.() !== 0) skip('needs root to mount a tmpfs (run as root, as CI does)')
  const dir = newDir()
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    skip(`cannot mount a tmpfs here: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`)
  }
  onTestFinished(() => {
    execFileSync('umount', [dir])
  })
  return dir
}

/** A migrated cache at `file`, closed (so no -wal or -shm are left). */
function makeCache(file: string): void {
  openDatabase(file).close()
}

async function startFails(dbFile: string): Promise<unknown> {
  return startAppCore({ db: dbFile }).then(
    async (core) => {
      await core.close()
      return undefined
    },
    (error: unknown) => error
  )
}

describe('a full disk', () => {
  it('fails a sync pass as a storage error naming the file, in its report and the diagnostics table (SQLite at its max_page_count)', async () => {
    const sim = await startSimulator({ liveSessions: 3, endedSessions: 4, viewersPerSession: 400, viewersPageSize: 100 })
    onTestFinished(() => sim.close())
    const { db, target } = simulatorCache(sim)
    const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
    // Room for the session list and a little more: the viewer lists fill the file.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 20}`)

    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })

    const file = db.name
    expect(report.listed).toBe(7)
    expect(report.viewerLists).toBeLessThan(7)
    expect(report.problems.length).toBeGreaterThan(0)
    for (const problem of report.problems) expect(problem).toEqual({ kind: 'storage', message: FULL(file) })
    const logged = listDiagnostics(db)
    expect(logged.length).toBe(report.problems.length)
    for (const entry of logged) expect({ kind: entry.kind, message: entry.message }).toEqual({ kind: 'storage', message: FULL(file) })
  })

  it('ends `sync --once` with one line "storage error: the disk holding FILE is full…" and exit code 2 (a real full tmpfs)', async (ctx) => {
    const dir = tmpfs(ctx, '1280k')
    const sim = await startSimulator({ liveSessions: 3, endedSessions: 4, viewersPerSession: 2000, viewersPageSize: 500 })
    onTestFinished(() => sim.close())
    const file = join(dir, 'cache.db')

    const result = await cli(['sync', '--once', ...simulatorFlags(sim), '--db', file], { EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })

    expect(result.code, result.stderr).toBe(2)
    // One line, naming the cause; every list that did not fit failed for it (how many depends on
    // the room left, which each migration takes some of).
    const [first, more] = result.line.split(' (and ')
    expect(first).toBe(`eventwatch: storage error: ${FULL(file)}`)
    if (more !== undefined) expect(more).toMatch(/^\d+ more problems?\)$/)
    // The sessions fitted; the viewer lists (stored by the cache writer's thread) did not, not
    // all of them (how many fit depends on the empty file's size, which each migration grows).
    const db = new Database(file, { readonly: true })
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 7 })
      expect((db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get() as { n: number }).n).toBeLessThan(7)
    } finally {
      db.close()
    }
  }, 60_000)
})

describe('a read-only file system', () => {
  it('refuses an existing cache, a new one and one in a new folder, naming each file, in the CLI and at the app core start', async (ctx) => {
    const dir = tmpfs(ctx, '4m')
    const existing = join(dir, 'cache.db')
    makeCache(existing)
    execFileSync('mount', ['-o', 'remount,ro', dir])
    const before = sha256(existing)

    for (const file of [existing, join(dir, 'new.db'), join(dir, 'sub', 'new.db')]) {
      const result = await cli(['sync', '--once', '--db', file])
      expect(result.code, result.stderr).toBe(2)
      expect(result.line).toBe(`eventwatch: storage error: ${READ_ONLY(file)}`)

      const error = await startFails(file)
      expect(error).toBeInstanceOf(StorageError)
      expect(error).toMatchObject({ kind: 'storage', file, message: READ_ONLY(file) })
    }
    expect(sha256(existing)).toBe(before)
  }, 60_000)
})

describe('a file that is not a SQLite database', () => {
  it('is refused, named and left byte for byte, with nothing created beside it', async () => {
    const file = join(newDir(), 'random.db')
    writeFileSync(file, randomBytes(8192))
    const before = sha256(file)

    const result = await cli(['sync', '--once', '--db', file])
    expect(result.code, result.stderr).toBe(2)
    expect(result.line).toBe(`eventwatch: storage error: ${NOT_A_DATABASE(file)}`)

    const exported = await cli(['export', 'sessions', '--db', file])
    expect(exported.code, exported.stderr).toBe(2)
    expect(exported.line).toBe(`eventwatch: storage error: ${NOT_A_DATABASE(file)}`)

    expect(await startFails(file)).toMatchObject({ kind: 'storage', file, message: NOT_A_DATABASE(file) })
    expect(sha256(file)).toBe(before)
    expect(sidecars(file)).toEqual([])
  }, 60_000)
})

describe('a cache from a newer Eventwatch', () => {
  it('is refused before anything is written: a rollback-journal file keeps its bytes, and gets no -wal or -shm', async () => {
    const file = join(newDir(), 'newer.db')
    makeCache(file)
    const newer = latestSchema() + 3
    const raw = new Database(file)
    raw.pragma('journal_mode = DELETE')
    raw.pragma(`user_version = ${newer}`)
    raw.close()
    // Header bytes 18 and 19 are 1 in rollback-journal mode (2 in WAL mode).
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([1, 1])
    const before = sha256(file)

    const result = await cli(['sync', '--once', '--db', file])
    expect(result.code, result.stderr).toBe(2)
    expect(result.line).toBe(`eventwatch: storage error: ${TOO_NEW(file, newer, latestSchema())}`)

    expect(await startFails(file)).toMatchObject({ kind: 'storage', file, message: TOO_NEW(file, newer, latestSchema()) })
    expect(sha256(file)).toBe(before)
    expect(sidecars(file)).toEqual([])
  }, 60_000)
})

describe('errors that escape a write', () => {
  /** What `write` throws, or a failure of the test when it throws nothing. */
  function thrownBy(write: () => unknown): unknown {
    try {
      write()
    } catch (error) {
      return error
    }
    throw new Error('expected the write to fail')
  }

  it('are storage errors naming the open cache, with SQLite\'s code: a real lock held by another connection, and the cache writer\'s rebuilt error', () => {
    const file = join(newDir(), 'cache.db')
    const db = openDatabase(file)
    onTestFinished(() => {
      db.close()
    })
    db.pragma('busy_timeout = 0') // fail at once rather than after the usual wait
    const other = new Database(file)
    onTestFinished(() => {
      other.close()
    })
    other.exec('BEGIN EXCLUSIVE')

    const busy = thrownBy(() => db.prepare('INSERT INTO settings (key, value_json) VALUES (?, ?)').run('k', '"v"'))
    expect(busy).toMatchObject({ code: 'SQLITE_BUSY' })
    expect(describeApiError(busy)).toEqual({ kind: 'storage', message: LOCKED(file) })
    expect(describeFailure(busy)).toEqual({ line: `storage error: ${LOCKED(file)}`, exitCode: 2 })
    other.exec('ROLLBACK')

    // As the cache writer's thread reports SQLite's error: its words and code only.
    const fromWriter = new CacheWriterError('database or disk is full', 'SQLITE_FULL')
    expect(describeApiError(fromWriter)).toEqual({ kind: 'storage', message: FULL(file) })

    // A query's own mistake is no fault of the disk.
    const constraint = thrownBy(() => db.prepare('INSERT INTO connections (id) VALUES (NULL)').run())
    expect((constraint as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/)
    expect(describeApiError(constraint).kind).not.toBe('storage')
  })
})
