// The cache's schema: openDatabase (db.ts) and the migration runner (migrate.ts), on real files.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { migrate, SchemaTooNewError, schemaVersion } from '../../src/main/core/store/migrate'
import { migrations } from '../../src/main/core/store/migrations'
import type { Migration } from '../../src/main/core/store/migrations/types'
import { connectionScales } from '../../src/main/core/store/reliability-scales'
import { getDisplaySettings } from '../../src/main/core/store/settings'

const LATEST = migrations.at(-1)?.version ?? 0

let dir: string
const open: Db[] = []
const track = (db: Db): Db => {
  open.push(db)
  return db
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-migrations-'))
})

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

const names = (db: Db, type: 'table' | 'index'): string[] =>
  (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name`).all(type) as {
      name: string
    }[]
  ).map((r) => r.name)

const schemaSql = (db: Db): string[] =>
  (db.prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name`).all() as { sql: string }[]).map(
    (r) => r.sql
  )

describe('the shipped migrations', () => {
  it('are numbered 1, 2, 3... in order, each with a name', () => {
    expect(migrations.length).toBeGreaterThan(0)
    migrations.forEach((m, i) => {
      expect(m.version).toBe(i + 1)
      expect(m.name).toMatch(/\S/)
    })
  })
})

describe('openDatabase', () => {
  it('migrates a fresh file to the latest version', () => {
    const db = track(openDatabase(join(dir, 'cache.db')))
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST)
    expect(schemaVersion(db)).toBe(LATEST)
  })

  it('creates the parent directory of the file when it is missing', () => {
    const db = track(openDatabase(join(dir, 'nested', 'deeper', 'cache.db')))
    expect(schemaVersion(db)).toBe(LATEST)
  })

  it('creates the expected tables and indexes', () => {
    const db = track(openDatabase(join(dir, 'cache.db')))
    expect(names(db, 'table')).toEqual(expect.arrayContaining(['connections', 'sessions', 'snapshots']))
    expect(names(db, 'index')).toEqual(
      expect.arrayContaining(['sessions_live', 'sessions_by_start', 'snapshots_by_session_time'])
    )
    const sessionColumns = (db.pragma('table_info(sessions)') as { name: string }[]).map((c) => c.name)
    expect(sessionColumns).toEqual(
      expect.arrayContaining([
        'connection_id',
        'event_session_id',
        'platform_id',
        'tenant_id',
        'content_id',
        'event_name',
        'started_at',
        'updated_at',
        'has_ended',
        'viewers_count',
        'reliability_score',
        'cdn_traffic',
        'ecdn_traffic',
        'raw_json'
      ])
    )
    const snapshotColumns = (db.pragma('table_info(snapshots)') as { name: string }[]).map((c) => c.name)
    expect(snapshotColumns).toEqual(
      expect.arrayContaining(['taken_at', 'viewers_count', 'reliability_score', 'cdn_traffic', 'ecdn_traffic'])
    )
  })

  it('turns on WAL journal mode and foreign keys', () => {
    const db = track(openDatabase(join(dir, 'cache.db')))
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    // Foreign keys are enforced, not merely declared: a snapshot of an unknown session is refused.
    expect(() =>
      db
        .prepare(
          `INSERT INTO snapshots (connection_id, event_session_id, taken_at, viewers_count, reliability_score,
             cdn_traffic, ecdn_traffic) VALUES ('nope', 'nope', 1, 1, 1, 1, 1)`
        )
        .run()
    ).toThrow(/FOREIGN KEY/)
  })

  it('is a no-op when reopened: the version and the data stay', () => {
    const file = join(dir, 'cache.db')
    const first = openDatabase(file)
    first
      .prepare(
        `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
         VALUES ('c1', 'Tenant', 'http://x', 'http://x', 'p', 't', 'id', 0, 1)`
      )
      .run()
    const before = schemaSql(first)
    first.close()

    const second = track(openDatabase(file))
    expect(schemaVersion(second)).toBe(LATEST)
    expect(schemaSql(second)).toEqual(before)
    expect(second.prepare('SELECT id, name FROM connections').all()).toEqual([{ id: 'c1', name: 'Tenant' }])
    // Running the migrations again by hand changes nothing either.
    expect(migrate(second)).toBe(LATEST)
    expect(second.prepare('SELECT COUNT(*) AS n FROM connections').get()).toEqual({ n: 1 })
  })

  it('refuses a file written by a newer schema with SchemaTooNewError and a clear message', () => {
    const file = join(dir, 'newer.db')
    const raw = new Database(file)
    raw.pragma(`user_version = ${LATEST + 5}`)
    raw.close()

    let caught: unknown
    try {
      track(openDatabase(file))
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(SchemaTooNewError)
    const message = (caught as Error).message
    expect(message).toContain(String(LATEST + 5))
    expect(message).toContain(String(LATEST))
    expect(message).toMatch(/newer/i)

    // The refused file is left as it was.
    const check = new Database(file)
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST + 5)
    check.close()
  })
})

describe('migrate', () => {
  const stepOne: Migration = {
    version: 1,
    name: 'one',
    up: (db) => db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)')
  }
  const stepTwo: Migration = {
    version: 2,
    name: 'two',
    up: (db) => db.exec('CREATE TABLE b (id INTEGER PRIMARY KEY); CREATE INDEX b_id ON b (id)')
  }

  it('applies only the steps above the current version', () => {
    const db = track(new Database(join(dir, 'steps.db')))
    expect(migrate(db, [stepOne])).toBe(1)
    let ranOne = 0
    const countedOne: Migration = { ...stepOne, up: () => void ranOne++ }
    expect(migrate(db, [countedOne, stepTwo])).toBe(2)
    expect(ranOne).toBe(0)
    expect(names(db, 'table')).toEqual(['a', 'b'])
  })

  it('leaves user_version and the schema unchanged when a step throws midway', () => {
    const db = track(new Database(join(dir, 'broken.db')))
    migrate(db, [stepOne])
    const before = schemaSql(db)

    const broken: Migration = {
      version: 2,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half_done (id INTEGER)')
        d.exec('ALTER TABLE a ADD COLUMN extra TEXT')
        throw new Error('boom in the middle')
      }
    }
    expect(() => migrate(db, [stepOne, broken])).toThrow('boom in the middle')
    expect(schemaVersion(db)).toBe(1)
    expect(schemaSql(db)).toEqual(before)
    expect(names(db, 'table')).not.toContain('half_done')
    expect((db.pragma('table_info(a)') as { name: string }[]).map((c) => c.name)).toEqual(['id'])

    // The same database migrates once the step is fixed.
    expect(migrate(db, [stepOne, stepTwo])).toBe(2)
  })

  it('keeps the steps that committed before a later one failed', () => {
    const db = track(new Database(join(dir, 'partial.db')))
    const failing: Migration = {
      version: 3,
      name: 'fails',
      up: () => {
        throw new Error('step 3 failed')
      }
    }
    expect(() => migrate(db, [stepOne, stepTwo, failing])).toThrow('step 3 failed')
    expect(schemaVersion(db)).toBe(2)
    expect(names(db, 'table')).toEqual(['a', 'b'])
  })

  it('raises SchemaTooNewError when user_version is above the last known step', () => {
    const db = track(new Database(join(dir, 'ahead.db')))
    db.pragma('user_version = 3')
    expect(() => migrate(db, [stepOne, stepTwo])).toThrow(SchemaTooNewError)
    expect(schemaVersion(db)).toBe(3)
    expect(names(db, 'table')).toEqual([])
  })
})

describe('migration 8: the reliability scale belongs to each connection', () => {
  /** A cache file as version 7 left it: two connections, and the display setting as given. */
  /** A connection row as every schema version since 3 takes it. */
  const addConnection = (db: Db, id: string, name: string): void => {
    db.prepare(
      `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
       VALUES (?, ?, 'https://x.example', 'https://x.example', 'p', 't', 'id', 0, 1)`
    ).run(id, name)
  }

  function versionSeven(display: Record<string, unknown> | string | null): string {
    const file = join(dir, 'v7.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    expect(migrate(raw, migrations.filter((m) => m.version <= 7))).toBe(7)
    addConnection(raw, 'a', 'Tenant A')
    addConnection(raw, 'b', 'Tenant B')
    if (display !== null) {
      const json = typeof display === 'string' ? display : JSON.stringify(display)
      raw.prepare("INSERT INTO settings (key, value_json) VALUES ('display', ?)").run(json)
    }
    raw.close()
    return file
  }

  /** Each connection's stored scale setting, by id. */
  const scales = (db: Db) =>
    Object.fromEntries(
      (db.prepare('SELECT id, reliability_scale AS scale FROM connections ORDER BY id').all() as { id: string; scale: string }[]).map((r) => [r.id, r.scale])
    )
  const storedDisplay = (db: Db): unknown =>
    JSON.parse((db.prepare("SELECT value_json FROM settings WHERE key = 'display'").get() as { value_json: string }).value_json)

  it('carries an app-wide 0–1 setting over to every connection and takes it out of the display settings', () => {
    const file = versionSeven({ timeZone: 'utc', theme: 'light', reliabilityScale: '0-1', trafficUnit: 'auto', viewerTimeUnit: 'auto' })
    const db = track(openDatabase(file))
    expect(schemaVersion(db)).toBe(LATEST)
    expect(scales(db)).toEqual({ a: '0-1', b: '0-1' })
    expect(storedDisplay(db)).toEqual({ timeZone: 'utc', theme: 'light', trafficUnit: 'auto', viewerTimeUnit: 'auto' })
    expect(getDisplaySettings(db)).toEqual({ timeZone: 'utc', theme: 'light', trafficUnit: 'auto', viewerTimeUnit: 'auto', alertSound: 'on', warningSound: 'off' })
    // The core uses it: set, for this connection, not detected.
    expect(connectionScales(db).get('a')).toMatchObject({ setting: '0-1', value: '0-1', source: 'setting' })
    expect(connectionScales(db).get('b')).toMatchObject({ setting: '0-1', value: '0-1', source: 'setting' })
  })

  it('leaves every connection on auto when no display setting was saved', () => {
    const db = track(openDatabase(versionSeven(null)))
    expect(scales(db)).toEqual({ a: 'auto', b: 'auto' })
    expect(db.prepare("SELECT COUNT(*) AS n FROM settings WHERE key = 'display'").get()).toEqual({ n: 0 })
  })

  it('leaves auto as auto, and an unreadable display value as it was', () => {
    const auto = track(openDatabase(versionSeven({ theme: 'light', reliabilityScale: 'auto' })))
    expect(scales(auto)).toEqual({ a: 'auto', b: 'auto' })
    expect(storedDisplay(auto)).toEqual({ theme: 'light' })
    auto.close()
    rmSync(join(dir, 'v7.db'))

    const unreadable = track(openDatabase(versionSeven('{not json')))
    expect(schemaVersion(unreadable)).toBe(LATEST)
    expect(scales(unreadable)).toEqual({ a: 'auto', b: 'auto' })
    expect(getDisplaySettings(unreadable).theme).toBe('system')
  })

  it('refuses a scale that is not one of auto, 0-1 and 0-100', () => {
    const db = track(openDatabase(join(dir, 'cache.db')))
    addConnection(db, 'c', 'C')
    expect(() => db.prepare("UPDATE connections SET reliability_scale = '0-10' WHERE id = 'c'").run()).toThrow(/CHECK/)
  })
})

describe('migration 9: viewer lists can be staged beside the one held', () => {
  /** A version-8 cache with one session, its viewer list of two viewers (one with a connection) and breakdowns. */
  function versionEight(): string {
    const file = join(dir, 'v8.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    expect(migrate(raw, migrations.filter((m) => m.version <= 8))).toBe(8)
    raw.exec(`
      INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
        VALUES ('c', 'Tenant', 'https://x.example', 'https://x.example', 'p', 't', 'id', 0, 1);
      INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, started_at, updated_at,
          has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic, raw_json, first_seen_at, last_polled_at)
        VALUES ('c', 's', 'p', 't', 'k', 1, 2, 1, 2, 99, 0, 0, '{}', 1, 2);
      INSERT INTO viewer_lists (id, connection_id, event_session_id, fetched_at, viewer_count, pages, breakdowns_of) VALUES (41, 'c', 's', 5, 2, 1, 5);
      INSERT INTO viewers (id, list_id, viewer_id, raw_json) VALUES (7, 41, 'v1', '{}'), (8, 41, 'v2', '{}');
      INSERT INTO viewer_connections (viewer, position, site_code) VALUES (7, 0, 101);
      INSERT INTO viewer_breakdowns (list_id, dimension, key, viewers, reliability_count) VALUES (41, 'site', '101', 1, 0);
    `)
    raw.close()
    return file
  }

  it('keeps every held list with its id, viewers, connections and breakdowns, and its foreign keys whole', () => {
    const db = track(openDatabase(versionEight()))
    expect(schemaVersion(db)).toBe(LATEST)
    expect(db.prepare('SELECT id, fetched_at, viewer_count, breakdowns_of, staged_at FROM viewer_lists').all()).toEqual([
      { id: 41, fetched_at: 5, viewer_count: 2, breakdowns_of: 5, staged_at: null }
    ])
    expect(db.prepare('SELECT id, list_id FROM viewers ORDER BY id').all()).toEqual([{ id: 7, list_id: 41 }, { id: 8, list_id: 41 }])
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_connections').get()).toEqual({ n: 1 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_breakdowns WHERE list_id = 41').get()).toEqual({ n: 1 })
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1) // switched back on after the step
    // Deleting the session still cascades through the rebuilt table.
    db.prepare("DELETE FROM sessions WHERE event_session_id = 's'").run()
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 0 })
  })

  it('holds one list per session, with staged ones beside it', () => {
    const db = track(openDatabase(versionEight()))
    const insert = db.prepare("INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages, staged_at) VALUES ('c', 's', 9, 0, 0, ?)")
    insert.run(9)
    insert.run(10)
    expect(() => insert.run(null)).toThrow(/UNIQUE/)
  })
})

describe('migration 10: a viewer list keeps its peak and last end, and its session rises to the peak', () => {
  /** A version-9 cache: session s (polled peak 2) with a list of viewers 0–60, 10–30, 20–40 (three at once from 20) and one without a start; session q without a list. */
  function versionNine(): string {
    const file = join(dir, 'v9.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    expect(migrate(raw, migrations.filter((m) => m.version <= 9))).toBe(9)
    raw.exec(`
      INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
        VALUES ('c', 'Tenant', 'https://x.example', 'https://x.example', 'p', 't', 'id', 0, 1);
      INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, started_at, updated_at,
          has_ended, viewers_count, peak_viewers, reliability_score, cdn_traffic, ecdn_traffic, raw_json, first_seen_at, last_polled_at)
        VALUES ('c', 's', 'p', 't', 'k', 1, 2, 1, 0, 2, 99, 0, 0, '{}', 1, 2),
               ('c', 'q', 'p', 't', 'k', 1, 2, 1, 0, 5, 99, 0, 0, '{}', 1, 2);
      INSERT INTO viewer_lists (id, connection_id, event_session_id, fetched_at, viewer_count, pages) VALUES (41, 'c', 's', 100, 4, 1);
      INSERT INTO viewers (list_id, viewer_id, started_at, ended_at, raw_json) VALUES
        (41, 'a', 0, 60, '{}'), (41, 'b', 10, 30, '{}'), (41, 'c', 20, 40, '{}'), (41, 'd', NULL, 50, '{}');
    `)
    raw.close()
    return file
  }

  it('computes the peak of each list held and raises the session peak to it, and leaves others as they were', () => {
    const db = track(openDatabase(versionNine()))
    expect(schemaVersion(db)).toBe(LATEST)
    expect(db.prepare('SELECT peak_viewers, peak_at, last_ended_at FROM viewer_lists WHERE id = 41').get()).toEqual({ peak_viewers: 3, peak_at: 20, last_ended_at: 60 })
    expect(db.prepare('SELECT event_session_id AS id, peak_viewers AS peak FROM sessions ORDER BY id').all()).toEqual([
      { id: 'q', peak: 5 },
      { id: 's', peak: 3 }
    ])
  })
})

describe('migration 30: webhooks to on-call tools, and the path a delivery goes to', () => {
  /** A version-29 cache with a signed Slack webhook and one delivery waiting for it. */
  function versionTwentyNine(): string {
    const file = join(dir, 'v29.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    expect(migrate(raw, migrations.filter((m) => m.version <= 29))).toBe(29)
    raw.exec(`
      INSERT INTO webhooks (id, name, url, format, signed, created_at, url_query_in_keychain) VALUES ('w1', 'Team', 'https://hooks.slack.com/x', 'slack', 1, 5, 0);
      INSERT INTO webhook_outbox (id, webhook_id, idempotency_key, event, alert_id, body, created_at, next_attempt_at) VALUES (9, 'w1', 'k', 'fired', 3, '{}', 6, 6);
    `)
    expect(() => raw.prepare("INSERT INTO webhooks (id, name, url, format, created_at) VALUES ('w2', 'P', 'https://x', 'pagerduty', 1)").run()).toThrow(/CHECK/)
    raw.close()
    return file
  }

  it('keeps every webhook and its waiting deliveries, takes pagerduty and opsgenie, and still cascades a removal', () => {
    const db = track(openDatabase(versionTwentyNine()))
    expect(schemaVersion(db)).toBe(LATEST)
    expect(db.prepare('SELECT id, name, format, signed, url_query_in_keychain FROM webhooks').all()).toEqual([
      { id: 'w1', name: 'Team', format: 'slack', signed: 1, url_query_in_keychain: 0 }
    ])
    expect(db.prepare('SELECT id, webhook_id, path FROM webhook_outbox').all()).toEqual([{ id: 9, webhook_id: 'w1', path: null }])
    expect(db.pragma('foreign_key_check')).toEqual([])
    db.prepare("INSERT INTO webhooks (id, name, url, format, created_at) VALUES ('w2', 'Pager', 'https://x', 'pagerduty', 1), ('w3', 'Genie', 'https://y', 'opsgenie', 1)").run()
    expect(() => db.prepare("INSERT INTO webhooks (id, name, url, format, created_at) VALUES ('w4', 'team', 'https://z', 'json', 1)").run()).toThrow(/UNIQUE/) // names, any case
    db.prepare("DELETE FROM webhooks WHERE id = 'w1'").run()
    expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_outbox').get()).toEqual({ n: 0 })
  })
})
