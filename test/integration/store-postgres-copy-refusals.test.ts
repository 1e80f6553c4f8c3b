// `eventwatch store copy` when it must not copy, or cannot finish: each refusal is one line in words
// with exit code 2, and leaves both ends as they were — a target holding a team's data, an
// unreachable one, a cache from a newer build, a table or column nobody planned for; a row
// PostgreSQL refuses half-way rolls the whole copy back. The cache is a real one (`eventwatch sync
// --once` of the demo), its variants made through SQLite as any other program would.
import Database from 'better-sqlite3'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COPIED_TABLES } from '../../src/main/core/store/copy/copy-plan'
import { migrate } from '../../src/main/core/store/migrate'
import { migrations } from '../../src/main/core/store/migrations'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { homeEnv } from '../support/cli'
import { runCli } from '../support/cli-processes'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { countsIn } from '../support/table-rows'
import { tempDirs } from '../support/temp-dirs'

const tempDir = tempDirs('eventwatch-store-copy-refusals-')
const TABLES = COPIED_TABLES.map((table) => table.name)
const EMPTY = Object.fromEntries(TABLES.map((table) => [table, 0]))
const databases: TestDatabase[] = []
let home: string
let cacheFile: string

async function database(): Promise<TestDatabase> {
  const made = await freshDatabase()
  databases.push(made)
  return made
}

const copy = (from: string, to: string, ...more: string[]) => runCli(['store', 'copy', '--from', from, '--to', to, ...more], homeEnv(home))

/** The cache, copied through SQLite's backup API, then changed by `change` as another program would. */
async function variant(change: (db: Database.Database) => void): Promise<string> {
  const file = join(tempDir(), 'variant.db')
  const source = new Database(cacheFile, { readonly: true })
  try {
    await source.backup(file)
  } finally {
    source.close()
  }
  const db = new Database(file)
  try {
    change(db)
  } finally {
    db.close()
  }
  return file
}

const userVersion = (file: string): number => {
  const db = new Database(file, { readonly: true })
  try {
    return db.pragma('user_version', { simple: true }) as number
  } finally {
    db.close()
  }
}

/** One line on stderr, in the CLI's form. */
const oneLine = (stderr: string): string => {
  expect(stderr.trim().split('\n').filter((line) => line.startsWith('eventwatch:'))).toHaveLength(1)
  return stderr.trim().split('\n').find((line) => line.startsWith('eventwatch:'))!
}

beforeAll(async () => {
  home = tempDir()
  cacheFile = join(home, 'cache.db')
  const synced = await runCli(['sync', '--once', '--db', cacheFile], homeEnv(home))
  expect(synced.code, synced.stderr).toBe(0)
}, 60_000)

afterAll(async () => {
  for (const made of databases) await made.drop()
})

describe('a target that is not empty', () => {
  it('is refused in one sentence when a copy is already there, and keeps what it holds', async () => {
    const target = await database()
    expect((await copy(cacheFile, target.url)).code).toBe(0)
    const before = await countsIn(target.url, TABLES)
    const again = await copy(cacheFile, target.url)
    expect(again.code).toBe(2)
    expect(oneLine(again.stderr)).toMatch(
      /^eventwatch: configuration error: postgres:\/\/\S+ is not empty \(it holds rows of connections, sessions, snapshots and \d+ more tables\): store copy fills only a new, empty database, so create one \(createdb\) and copy into it; nothing was changed$/
    )
    expect(await countsIn(target.url, TABLES)).toEqual(before)
  }, 30_000)

  it('is refused when it holds only a user', async () => {
    const target = await database()
    const store = await openPgStore(target.url)
    await store.withTransaction((tx) => tx.team.users.insert({ name: 'carol', role: 'operator', tokenHash: 'h' }, Date.now()))
    await store.close()
    const refused = await copy(cacheFile, target.url)
    expect(refused.code).toBe(2)
    expect(oneLine(refused.stderr)).toMatch(/is not empty \(it holds rows of users\): store copy fills only a new, empty database/)
    expect(await countsIn(target.url, TABLES)).toEqual({ ...EMPTY, users: 1 })
  })
})

describe('a target that cannot be reached', () => {
  it('is refused in words naming it without its password, before the cache is opened', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const refused = await copy(join(home, 'no-such-cache.db'), `postgres://eventwatch:hunter2@127.0.0.1:${closed}/eventwatch`)
    expect(refused.code).toBe(2)
    // The missing --from is found first (a stat), before anything is opened.
    expect(oneLine(refused.stderr)).toMatch(/no-such-cache\.db does not exist: --from takes the SQLite cache file to copy$/)
    const unreachable = await copy(cacheFile, `postgres://eventwatch:hunter2@127.0.0.1:${closed}/eventwatch`)
    expect(unreachable.code).toBe(2)
    expect(oneLine(unreachable.stderr)).toBe(
      `eventwatch: storage error: cannot reach the PostgreSQL server of postgres://eventwatch:***@127.0.0.1:${closed}/eventwatch (ECONNREFUSED): is it running, and is the URL (--to) right?`
    )
    expect(unreachable.stderr).not.toContain('hunter2')
  })

  it('is not taken for a URL when it is none', async () => {
    const refused = await copy(cacheFile, join(home, 'other.db'))
    expect(refused.code).toBe(2)
    expect(oneLine(refused.stderr)).toMatch(/--to takes a postgres:\/\/ URL \(postgres:\/\/user@host\/database\), got ".*other\.db"\.$/)
  })
})

describe('a copy that fails half-way', () => {
  it('rolls everything back: the target is left empty, and a copy after the fix fills it', async () => {
    // A row SQLite kept (its columns take any type) and PostgreSQL refuses, in the last table
    // copied: every other row has been written by then, in the transaction.
    const mangled = await variant((db) => db.exec("UPDATE viewer_breakdowns SET viewers = 'many' WHERE rowid = (SELECT max(rowid) FROM viewer_breakdowns)"))
    const target = await database()
    const failed = await copy(mangled, target.url)
    expect(failed.code).toBe(2)
    expect(oneLine(failed.stderr)).toMatch(
      /^eventwatch: storage error: PostgreSQL refused a row of viewer_breakdowns \(rows [\d,]+–[\d,]+ of the cache's\): invalid input syntax for type bigint: "many"; the copy was rolled back and the target is empty as before$/
    )
    expect(await countsIn(target.url, TABLES)).toEqual(EMPTY)

    const fixed = new Database(mangled)
    fixed.exec("UPDATE viewer_breakdowns SET viewers = 1 WHERE viewers = 'many'")
    fixed.close()
    const retried = await copy(mangled, target.url)
    expect(retried.code, retried.stderr).toBe(0)
    expect((await countsIn(target.url, TABLES)).viewer_breakdowns).toBeGreaterThan(0)
  }, 30_000)
})

describe('a cache the copy does not know whole', () => {
  it('is refused when it holds a table nobody planned for, naming it', async () => {
    const withNotes = await variant((db) => db.exec("CREATE TABLE operator_notes (note TEXT); INSERT INTO operator_notes VALUES ('keep me')"))
    const target = await database()
    const refused = await copy(withNotes, target.url)
    expect(refused.code).toBe(2)
    expect(oneLine(refused.stderr)).toMatch(/holds tables store copy does not know \(operator_notes\): added by hand or by another program, they would be lost, so nothing was copied$/)
    expect(await countsIn(target.url, TABLES)).toEqual(EMPTY)
  })

  it('is refused when a table has a column the PostgreSQL schema lacks', async () => {
    const withColour = await variant((db) => db.exec('ALTER TABLE connections ADD COLUMN colour TEXT'))
    const refused = await copy(withColour, (await database()).url)
    expect(refused.code).toBe(2)
    expect(oneLine(refused.stderr)).toMatch(/this build cannot copy connections\.colour: the PostgreSQL schema has no column to take it; nothing was copied$/)
  })

  it('is refused, unchanged, when a newer Eventwatch wrote it', async () => {
    const newer = await variant((db) => db.pragma('user_version = 99'))
    const refused = await copy(newer, (await database()).url)
    expect(refused.code).toBe(2)
    expect(oneLine(refused.stderr)).toMatch(/was written by a newer Eventwatch \(schema 99, this build knows \d+\): copy it with that Eventwatch or a newer one; the file was not changed$/)
    expect(userVersion(newer)).toBe(99)
  })

  it('is refused when it is no Eventwatch cache at all', async () => {
    const notACache = join(tempDir(), 'notes.txt')
    writeFileSync(notACache, 'just some text, long enough to be no SQLite header at all'.repeat(20))
    const foreign = join(tempDir(), 'foreign.db')
    new Database(foreign).exec('CREATE TABLE recipes (name TEXT)').close()
    const target = await database()
    expect(oneLine((await copy(notACache, target.url)).stderr)).toMatch(/notes\.txt is not an Eventwatch cache \(not a SQLite database\)/)
    expect(oneLine((await copy(foreign, target.url)).stderr)).toMatch(/foreign\.db is not an Eventwatch cache \(a SQLite file Eventwatch never opened\): check --from; the file was not changed$/)
    expect(userVersion(foreign)).toBe(0)
  })
})

describe('an older cache', () => {
  it('is migrated to this build\'s schema first, and says so', async () => {
    const older = join(tempDir(), 'older.db')
    const db = new Database(older)
    migrate(db, migrations.filter((m) => m.version <= 20))
    db.prepare(
      `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, created_at)
       VALUES ('c1', 'Tenant from 2025', 'https://api.example', 'https://auth.example', 'p', 't', 'client', 1)`
    ).run()
    db.close()
    const target = await database()
    const copied = await copy(older, target.url)
    expect(copied.code, copied.stderr).toBe(0)
    const latest = migrations.at(-1)!.version
    expect(copied.stdout).toContain(`Migrated ${older} from schema 20 to ${latest} first, as this build does when it opens a cache.`)
    expect(userVersion(older)).toBe(latest)
    expect((await countsIn(target.url, ['connections'])).connections).toBe(1)
  })
})

describe('text PostgreSQL cannot hold', () => {
  it('copies a NUL the service sent as U+FFFD, in text and in JSON, and leaves a quoted "\\u0000" alone', async () => {
    const hostile = await variant((db) =>
      db.exec(`UPDATE sessions SET event_name = 'Town' || char(0) || 'hall',
        raw_json = json_set(raw_json, '$.eventName', 'Town' || char(0) || 'hall', '$.note', '\\u0000 is how JSON writes NUL')
        WHERE rowid = (SELECT min(rowid) FROM sessions)`)
    )
    const target = await database()
    const copied = await copy(hostile, target.url)
    expect(copied.code, copied.stderr).toBe(0)
    const client = new pg.Client({ connectionString: target.url })
    await client.connect()
    const { rows } = await client.query("SELECT event_name, raw_json->>'eventName' AS raw, raw_json->>'note' AS note FROM sessions WHERE event_name LIKE 'Town%'")
    await client.end()
    expect(rows).toEqual([{ event_name: 'Town\uFFFDhall', raw: 'Town\uFFFDhall', note: '\\u0000 is how JSON writes NUL' }])
  }, 30_000)
})

describe('--json', () => {
  it('prints the tables and their counts for a script', async () => {
    const target = await database()
    const copied = await copy(cacheFile, target.url, '--json')
    expect(copied.code, copied.stderr).toBe(0)
    const result = JSON.parse(copied.stdout) as { to: string; tables: { table: string; rows: number; leftOut: number }[] }
    expect(result.to).toBe(target.url)
    expect(result.tables.map((t) => t.table)).toEqual(TABLES)
    const counts = await countsIn(target.url, TABLES)
    expect(Object.fromEntries(result.tables.map((t) => [t.table, t.rows]))).toEqual(counts)
    expect(counts.viewers).toBeGreaterThan(1000) // more than one page
  }, 30_000)
})

describe('a cache in use', () => {
  it('is read as one snapshot while another program holds a write open, and that program is not blocked', async () => {
    const file = await variant(() => undefined)
    const writer = new Database(file)
    writer.pragma('journal_mode = WAL')
    writer.exec('BEGIN IMMEDIATE')
    writer.prepare("INSERT INTO site_names (code, name) VALUES (999, 'Written during the copy')").run()
    const target = await database()
    const copied = await copy(file, target.url)
    writer.exec('COMMIT') // the copy never held SQLite's write lock: this does not wait
    writer.close()
    expect(copied.code, copied.stderr).toBe(0)
    const client = new pg.Client({ connectionString: target.url })
    await client.connect()
    const names = (await client.query('SELECT code FROM site_names')).rows
    await client.end()
    expect(names).toEqual([])
  }, 30_000)
})
