// Schema 3 on real files: a version-2 cache upgrades with its data (ended-at and peak back-filled),
// new files get incremental auto-vacuum, and each screen's query is served by the index meant
// for it (checked with EXPLAIN QUERY PLAN on the SQL the query functions actually run).
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { openDatabase } from '../../src/main/core/store/db'
import { migrate } from '../../src/main/core/store/migrate'
import { migrations } from '../../src/main/core/store/migrations'
import { breakdown, listLiveSessions, pastSessions, snapshotsForChart, viewerPage } from '../../src/main/core/store/queries'
import { pruneOnce } from '../../src/main/core/store/retention'
import { storeSessionList, storeSessionSnapshot, upsertConnection } from '../../src/main/core/store/sessions'
import { storeViewerList } from '../../src/main/core/store/viewers'

const T0 = Date.parse('2026-01-05T10:00:00Z')
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-schema-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const record = (id: string, hasEnded: boolean, viewersCount: number, at = T0): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: 't', contentId: 'c', eventName: `Event ${id}`,
  startedAt: new Date(T0).toISOString(), updatedAt: new Date(at).toISOString(), hasEnded,
  viewersCount, reliabilityScore: 97, cdnTraffic: 0, ecdnTraffic: 0
})

describe('migration 3', () => {
  it('upgrades a version-2 cache in place, back-filling what it can', () => {
    const file = join(dir, 'v2.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    migrate(raw, migrations.slice(0, 2))
    raw.exec(`
      INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
        VALUES ('A', 'A', 'x', 'x', 'p', 't', 'c', 0, 0);
      INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, started_at, updated_at,
        has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic, raw_json, first_seen_at, last_polled_at)
      VALUES ('A', 'ended', 'p', 't', 'c', 1, 1, 1, 0, 90, 0, 0, '{}', 100, 500),
             ('A', 'live', 'p', 't', 'c', 1, 1, 0, 42, 90, 0, 0, '{}', 100, 600);
      INSERT INTO snapshots (connection_id, event_session_id, taken_at, viewers_count, reliability_score, cdn_traffic, ecdn_traffic)
      VALUES ('A', 'ended', 200, 350, 90, 0, 0), ('A', 'ended', 300, 120, 90, 0, 0);
      INSERT INTO diagnostics (connection_id, at, kind, endpoint, message) VALUES ('A', 1, 'network', 'x', 'y'), (NULL, 1, 'network', 'x', 'z');
    `)
    raw.close()

    const db = openDatabase(file)
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(3)
      expect(db.prepare('SELECT event_session_id AS id, ended_observed_at AS e, peak_viewers AS p FROM sessions ORDER BY id').all()).toEqual([
        { id: 'ended', e: 500, p: 350 },
        { id: 'live', e: null, p: 42 }
      ])
      // Diagnostics follow their connection out; app-wide ones stay.
      db.prepare("DELETE FROM connections WHERE id = 'A'").run()
      expect(db.prepare('SELECT message FROM diagnostics').all()).toEqual([{ message: 'z' }])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
    }
  })

  it('gives new files incremental auto-vacuum; existing files keep theirs until a VACUUM', () => {
    const fresh = openDatabase(join(dir, 'new.db'))
    expect(fresh.pragma('auto_vacuum', { simple: true })).toBe(2)
    fresh.close()
    const raw = new Database(join(dir, 'old.db'))
    raw.exec('CREATE TABLE t (x)')
    raw.close()
    const old = openDatabase(join(dir, 'old.db'))
    expect(old.pragma('auto_vacuum', { simple: true })).toBe(0)
    old.close()
  })
})

describe('the screens’ queries use their indexes', () => {
  /** Query plans of the statements `run` executes (after `warm`, whose statements are not counted). */
  function plans(run: (db: Database.Database) => void, warm?: (db: Database.Database) => void): string[] {
    const file = join(dir, 'plans.db')
    const seeded = openDatabase(file)
    upsertConnection(seeded, { id: 'A', name: 'A', baseUrl: 'x', authUrl: 'x', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
    storeSessionList(seeded, 'A', [record('ended', true, 0), record('live', false, 3)], T0)
    storeSessionSnapshot(seeded, 'A', record('live', false, 3, T0 + 1), T0 + 1)
    storeViewerList(seeded, 'A', 'live', [{ viewerId: 'v', os: 'iOS', reliabilityScore: 80 }] as ViewerRecord[], T0, 1)
    seeded.close()
    const seen: string[] = []
    const db = new Database(file, { verbose: (sql) => seen.push(String(sql)) })
    try {
      db.pragma('foreign_keys = ON')
      warm?.(db)
      seen.length = 0
      run(db)
      return seen
        .filter((sql) => !/^\s*(PRAGMA|EXPLAIN)/i.test(sql))
        .map((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | '))
    } finally {
      db.close()
    }
  }

  it('live sessions: sessions_live', () => {
    expect(plans((db) => listLiveSessions(db, 'A')).join('\n')).toMatch(/sessions_live|sessions_past_by_start \(has_ended=\? AND connection_id=\?\)/)
  })

  it('past sessions by start time and by name: the past_* indexes, no sort of their own', () => {
    const byStart = plans((db) => pastSessions(db, { connectionId: 'A', sort: 'started', descending: true, search: 'Event' }))
    // (Either start-time index walks the rows in order; the planner may test has_ended per row.)
    expect(byStart.at(-1)).toMatch(/INDEX sessions_(past_)?by_start \((has_ended=\? AND )?connection_id=\?\)/)
    expect(byStart.at(-1)).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
    // The search's count reads the index alone.
    expect(byStart[0]).toMatch(/COVERING INDEX sessions_past_by_start/)
    expect(plans((db) => pastSessions(db, { sort: 'started' })).at(-1)).toMatch(/INDEX sessions_past_all_by_start \(has_ended=\?\)/)
    const byName = plans((db) => pastSessions(db, { connectionId: 'A', sort: 'name' })).at(-1)
    expect(byName).toMatch(/INDEX sessions_past_by_name/)
    expect(byName).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('a chart: snapshots_by_session_time', () => {
    expect(plans((db) => snapshotsForChart(db, 'A', 'live')).join('\n')).toMatch(/snapshots_by_session_time/)
  })

  it('a viewer page by reliability: read off viewers_by_reliability', () => {
    const page = plans((db) => viewerPage(db, 'A', 'live', { sort: 'reliabilityScore' })).at(-1)
    expect(page).toMatch(/viewers_by_reliability \(connection_id=\? AND event_session_id=\?\)/)
    expect(page).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('a breakdown: computed by one pass over the session, then read from viewer_breakdowns_by_list', () => {
    const first = plans((db) => breakdown(db, 'A', 'live', 'os')).join('\n')
    expect(first).toMatch(/SEARCH v USING INDEX \w+ \(connection_id=\? AND event_session_id=\?\)/)
    const again = plans((db) => breakdown(db, 'A', 'live', 'site'), (db) => breakdown(db, 'A', 'live', 'os'))
    expect(again.join('\n')).toMatch(/viewer_breakdowns_by_list \(connection_id=\? AND event_session_id=\? AND dimension=\?\)/)
    expect(again.join('\n')).not.toMatch(/SEARCH v /)
  })

  it('retention: snapshots_by_time, viewer_lists_by_fetched, sessions_past_all_by_start', () => {
    const all = plans((db) => pruneOnce(db, { snapshotsDays: 1, viewerListsDays: 1, sessionsDays: 1 }, T0 + 10 * 86_400_000)).join('\n')
    expect(all).toMatch(/snapshots_by_time \(taken_at<\?\)/)
    expect(all).toMatch(/viewer_lists_by_fetched \(fetched_at<\?\)/)
    expect(all).toMatch(/sessions_past_all_by_start \(has_ended=\? AND started_at<\?\)/)
  })
})
