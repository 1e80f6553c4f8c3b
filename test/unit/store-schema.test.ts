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
import { breakdown, pastSessions, snapshotsForChart, viewerPage } from '../../src/main/core/store/queries'
import { retentionTable } from '../../src/main/core/store/sqlite/retention-table'
import { answerNow, type Runner } from '../../src/main/core/store/sqlite/runners'
import { latestSnapshot, liveSessionRows, storeSessionList, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { connectionScaleFacts, upsertConnection } from '../../src/main/core/store/connections'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { alertChangesSince, pruneAlertChanges } from '../../src/main/core/store/alert-change-log'

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

/** A cache file as version `version` left it, holding what `sql` inserts; returns its path. */
function cacheAtVersion(version: number, sql: string): string {
  const file = join(dir, `v${version}.db`)
  const raw = new Database(file)
  raw.pragma('foreign_keys = ON')
  migrate(raw, migrations.slice(0, version))
  raw.exec(sql)
  raw.close()
  return file
}

describe('migration 3', () => {
  it('upgrades a version-2 cache in place, back-filling what it can', () => {
    const file = cacheAtVersion(2, `
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

    const db = openDatabase(file)
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)?.version)
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

describe('migration 4', () => {
  it('carries a version-3 cache’s viewer lists over to integer keys, whole', () => {
    const file = cacheAtVersion(3, `
      INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
        VALUES ('A', 'A', 'x', 'x', 'p', 't', 'c', 0, 0), ('B', 'B', 'x', 'x', 'p', 't', 'c', 0, 0);
      INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, started_at, updated_at,
        has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic, raw_json, first_seen_at, last_polled_at)
      VALUES ('A', 's', 'p', 't', 'c', 1, 1, 0, 2, 90, 0, 0, '{}', 100, 600),
             ('B', 's', 'p', 't', 'c', 1, 1, 0, 1, 90, 0, 0, '{}', 100, 600);
      INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages, breakdowns_of)
        VALUES ('A', 's', 700, 2, 1, 700), ('B', 's', 800, 1, 1, NULL);
      INSERT INTO viewers (connection_id, event_session_id, viewer_id, os, reliability_score, raw_json)
        VALUES ('A', 's', 'v1', 'Windows', 40, '{}'), ('A', 's', 'v2', 'macOS', 95, '{"extra":1}'), ('B', 's', 'v1', 'Linux', 70, '{}');
      INSERT INTO viewer_connections (connection_id, event_session_id, viewer_id, position, public_ip, site_code, type_json)
        VALUES ('A', 's', 'v1', 0, '1.1.1.1', 101, '{"kind":"wired"}'), ('A', 's', 'v1', 1, '1.1.1.2', 102, NULL),
               ('B', 's', 'v1', 0, '2.2.2.2', 202, '{"kind":"wifi"}');
      INSERT INTO viewer_breakdowns (connection_id, event_session_id, dimension, key, viewers, reliability_count)
        VALUES ('A', 's', 'os', 'stale', 9, 0);
    `)

    const db = openDatabase(file)
    try {
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const a = viewerPage(db, 'A', 's', { sort: 'reliabilityScore' })
      expect(a.fetchedAt).toBe(new Date(700).toISOString())
      expect(a.rows.map((r) => [r.viewerId, r.os, r.siteCode, r.connectionType, r.publicIp])).toEqual([
        ['v1', 'Windows', 101, 'wired', '1.1.1.1'],
        ['v2', 'macOS', null, null, null]
      ])
      expect(viewerPage(db, 'B', 's', { sort: 'viewerId' }).rows.map((r) => [r.viewerId, r.os, r.siteCode])).toEqual([['v1', 'Linux', 202]])
      // The old breakdown cache is gone: the next request computes it from the viewers.
      expect(breakdown(db, 'A', 's', 'os').map((r) => [r.key, r.viewers])).toEqual([['Windows', 1], ['macOS', 1]])
      const exported = db.prepare('SELECT COUNT(*) AS n FROM viewer_connections').get()
      expect(exported).toEqual({ n: 3 })
      // Still owned by the session: deleting A's session removes its list, viewers and connections only.
      db.prepare("DELETE FROM sessions WHERE connection_id = 'A'").run()
      expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 1 })
      expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_connections').get()).toEqual({ n: 1 })
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'v3_%'").all()).toEqual([])
    } finally {
      db.close()
    }
  })

  it('keeps the last record of a viewer id the service repeats within one list', () => {
    const db = openDatabase(join(dir, 'repeat.db'))
    try {
      upsertConnection(db, { id: 'A', name: 'A', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
      storeSessionList(db, 'A', [record('s', false, 2)], T0)
      storeViewerList(db, 'A', 's', [
        { viewerId: 'v1', os: 'old' },
        { viewerId: 'v2', os: 'iOS' },
        { viewerId: 'v1', os: 'new' }
      ] as ViewerRecord[], T0, 2)
      expect(viewerPage(db, 'A', 's', { sort: 'viewerId' }).rows.map((r) => [r.viewerId, r.os])).toEqual([['v1', 'new'], ['v2', 'iOS']])
      expect(db.prepare('SELECT viewer_count AS n FROM viewer_lists').get()).toEqual({ n: 2 })
    } finally {
      db.close()
    }
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
    expect(plans((db) => liveSessionRows(db, 'A')).join('\n')).toMatch(/sessions_live|sessions_past_by_start \(has_ended=\? AND connection_id=\?\)/)
  })

  it('a live row\'s newest point: snapshots_by_session_time, no sort of its own', () => {
    const plan = plans((db) => latestSnapshot(db, 'A', 'live')).join('\n')
    expect(plan).toMatch(/snapshots_by_session_time/)
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('each connection\'s scale (count and highest score): sessions_by_score, one index alone', () => {
    expect(plans((db) => connectionScaleFacts(db)).join('\n')).toMatch(/COVERING INDEX sessions_by_score \(connection_id=\?\)/)
  })

  it('past sessions by reliability, one scale: sessions_by_reliability, no sort of its own', () => {
    const byReliability = plans((db) => pastSessions(db, { sort: 'reliability', includeLive: true, limit: 5 }))[0]
    expect(byReliability).toMatch(/sessions_by_reliability/)
    expect(byReliability).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('past sessions by start time and by name: the past_* indexes, no sort of their own', () => {
    // A search: the page walks the start-time index in order (no sort of its own) and stops at the
    // page; its count, when the page is full, reads an index alone (search_text rides along).
    const search = plans((db) => pastSessions(db, { connectionId: 'A', sort: 'started', descending: true, search: 'e', limit: 1 }))
    expect(search[0]).toMatch(/INDEX sessions_past_by_start \(has_ended=\? AND connection_id=\?\)/)
    expect(search[0]).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
    expect(search[1]).toMatch(/COVERING INDEX sessions_past_(all_)?by_(start|name)/)
    expect(plans((db) => pastSessions(db, { sort: 'started' }))[0]).toMatch(/INDEX sessions_past_all_by_start \(has_ended=\?\)/)
    const byName = plans((db) => pastSessions(db, { connectionId: 'A', sort: 'name', search: 'e' }))[0]
    expect(byName).toMatch(/INDEX sessions_past_by_name/)
    expect(byName).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('a chart: snapshots_by_session_time', () => {
    expect(plans((db) => snapshotsForChart(db, 'A', 'live')).join('\n')).toMatch(/snapshots_by_session_time/)
  })

  it('a viewer page by reliability: read off viewers_by_reliability', () => {
    const page = plans((db) => viewerPage(db, 'A', 'live', { sort: 'reliabilityScore' })).at(-1)
    expect(page).toMatch(/viewers_by_reliability \(list_id=\?\)/)
    expect(page).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })

  it('a breakdown: read from viewer_breakdowns_by_list; a list stored without sums is scanned once', () => {
    const forget = (db: Database.Database): void => {
      db.exec('DELETE FROM viewer_breakdowns; UPDATE viewer_lists SET breakdowns_of = NULL')
    }
    const first = plans((db) => breakdown(db, 'A', 'live', 'os'), forget).join('\n')
    expect(first).toMatch(/SEARCH v USING INDEX \w+ \(list_id=\?\)/)
    const again = plans((db) => breakdown(db, 'A', 'live', 'site'))
    expect(again.join('\n')).toMatch(/viewer_breakdowns_by_list \(list_id=\? AND dimension=\?\)/)
    expect(again.join('\n')).not.toMatch(/SEARCH v /)
  })

  it('retention: snapshots_by_time, viewer_lists_by_fetched, sessions_past_all_by_start, alerts_by_resolved, audit_log_by_at, alert_changes_by_time', () => {
    const cutoff = T0 + 9 * 86_400_000
    // Each batch of the retention concern, one statement after another (the runner answers at once).
    const all = plans((db) => {
      const now: Runner = (call) => answerNow(call, 'plans.db')
      const retention = retentionTable(db, { read: now, write: now })
      void retention.pruneSnapshots(cutoff, 10)
      void retention.pruneViewerLists(cutoff, 10)
      void retention.pruneSnapshotsOfEndedSessions(cutoff, 10)
      void retention.pruneViewerListsOfEndedSessions(cutoff, 10)
      void retention.pruneEndedSessions(cutoff, 10)
      void retention.pruneResolvedAlerts(cutoff, 10)
      void retention.pruneAudit(cutoff, 10)
      pruneAlertChanges(db, cutoff, 10)
    }).join('\n')
    expect(all).toMatch(/alerts_by_resolved \(resolved_at<\?\)/)
    expect(all).toMatch(/snapshots_by_time \(taken_at<\?\)/)
    expect(all).toMatch(/viewer_lists_by_fetched \(fetched_at<\?\)/)
    expect(all).toMatch(/sessions_past_all_by_start \(has_ended=\? AND started_at<\?\)/)
    expect(all).toMatch(/audit_log_by_at \(at<\?\)/)
    expect(all).toMatch(/alert_changes_by_time \(at<\?\)/)
  })

  it("what pushes announced since a revision: alert_changes_by_revision, no sort of its own", () => {
    const page = plans((db) => alertChangesSince(db, 0, 10)).join('\n')
    expect(page).toMatch(/alert_changes_by_revision \(revision>\?\)/)
    expect(page).not.toMatch(/TEMP B-TREE FOR ORDER BY/)
  })
})
