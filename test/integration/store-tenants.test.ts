// Tenant isolation: two connections that both know session "shared" and viewers "v1", "v2".
// Every query answers for the connection asked about only, storing one's data never touches the
// other's, and deleting one connection removes all of its rows and none of the other's.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { deleteConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { listDiagnostics, recordDiagnostic } from '../../src/main/core/store/diagnostics'
import { breakdown, pastSessions, snapshotsForChart, viewerPage } from '../../src/main/core/store/queries'
import { liveSessionRows, storeSessionList, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { listSyncRuns, startSyncRun } from '../../src/main/core/store/sync-runs'
import { storeViewerList } from '../../src/main/core/store/viewers'

const T0 = Date.parse('2026-05-04T12:00:00Z')
const TABLES = ['sessions', 'snapshots', 'viewer_lists', 'viewers', 'viewer_connections', 'viewer_breakdowns', 'sync_runs', 'diagnostics']
/** Rows below a viewer list belong to the list's connection. */
const OWNED_THROUGH_LIST: Record<string, string> = {
  viewers: 'viewers t JOIN viewer_lists vl ON vl.id = t.list_id',
  viewer_connections: 'viewer_connections t JOIN viewers v ON v.id = t.viewer JOIN viewer_lists vl ON vl.id = v.list_id',
  viewer_breakdowns: 'viewer_breakdowns t JOIN viewer_lists vl ON vl.id = t.list_id'
}

let dir: string
let db: Db

const record = (id: string, tenant: string, o: Partial<EventSessionRecord> = {}): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: tenant, contentId: `content-${tenant}`, eventName: `${tenant} all-hands`,
  startedAt: new Date(T0).toISOString(), updatedAt: new Date(T0).toISOString(), hasEnded: false,
  viewersCount: 2, reliabilityScore: 90, cdnTraffic: 1, ecdnTraffic: 1, ...o
})

const viewers = (os: string, reliability: number, site: number): ViewerRecord[] =>
  ['v1', 'v2'].map((viewerId, i) => ({
    viewerId, os, deviceType: 'Desktop', reliabilityScore: reliability + i,
    networkConnections: [{ siteCode: site, type: { kind: os === 'Windows' ? 'wired' : 'wifi' } }]
  })) as ViewerRecord[]

/** Fills both tenants the same way, with values that tell them apart. */
function fill(tenant: 'A' | 'B', os: string, reliability: number, site: number): void {
  upsertConnection(db, {
    id: tenant, name: `Tenant ${tenant}`, baseUrl: `https://${tenant}.example.com`, authUrl: `https://${tenant}.example.com`,
    platformId: 'p', tenantId: tenant, clientId: 'c', isDemo: false
  })
  storeSessionList(db, tenant, [record('shared', tenant), record('old', tenant, { hasEnded: true })], T0)
  for (let i = 0; i < 3; i++) {
    storeSessionSnapshot(db, tenant, record('shared', tenant, { updatedAt: new Date(T0 + i).toISOString(), reliabilityScore: reliability }), T0 + i * 1000)
  }
  storeViewerList(db, tenant, 'shared', viewers(os, reliability, site), T0, 1)
  storeViewerList(db, tenant, 'old', viewers(os, reliability, site), T0, 1)
  breakdown(db, tenant, 'shared', 'os') // caches its breakdown rows
  startSyncRun(db, tenant, 'discovery', T0)
  recordDiagnostic(db, { connectionId: tenant, at: T0, kind: 'network', endpoint: 'listSessions', message: `trouble at ${tenant}` })
}

const counts = (tenant: string): Record<string, number> =>
  Object.fromEntries(
    TABLES.map((t) => {
      const from = OWNED_THROUGH_LIST[t] ?? `${t} vl`
      return [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${from} WHERE vl.connection_id = ?`).get(tenant) as { n: number }).n]
    })
  )

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-tenants-'))
  db = openDatabase(join(dir, 'cache.db'))
  fill('A', 'Windows', 90, 101)
  fill('B', 'macOS', 50, 202)
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('two connections with the same session and viewer ids', () => {
  it('each query answers for the connection asked about only', () => {
    expect(liveSessionRows(db, 'A').map((s) => [s.connection_id, s.event_session_id])).toEqual([['A', 'shared']])
    expect(liveSessionRows(db).map((s) => s.connection_id).sort()).toEqual(['A', 'B'])
    expect(pastSessions(db, { connectionId: 'B', sort: 'started' }).rows.map((s) => [s.connectionId, s.eventName])).toEqual([['B', 'B all-hands']])

    const chart = snapshotsForChart(db, 'A', 'shared')
    expect(chart.total).toBe(3)
    expect(chart.points.every((p) => p.reliabilityScore === 90)).toBe(true)

    for (const [tenant, os, site, type] of [['A', 'Windows', 101, 'wired'], ['B', 'macOS', 202, 'wifi']] as const) {
      const page = viewerPage(db, tenant, 'shared', { sort: 'viewerId' })
      expect(page.total).toBe(2)
      expect(page.rows.map((r) => [r.viewerId, r.os, r.siteCode, r.connectionType])).toEqual([
        ['v1', os, site, type], ['v2', os, site, type]
      ])
      expect(viewerPage(db, tenant, 'shared', { sort: 'viewerId', filter: { siteCode: tenant === 'A' ? 202 : 101 } }).total).toBe(0)
      expect(breakdown(db, tenant, 'shared', 'os').map((r) => [r.key, r.viewers])).toEqual([[os, 2]])
      expect(breakdown(db, tenant, 'shared', 'site').map((r) => r.key)).toEqual([String(site)])
      expect(listSyncRuns(db, tenant).map((r) => r.connectionId)).toEqual([tenant])
      expect(listDiagnostics(db, 10, tenant).map((d) => d.message)).toEqual([`trouble at ${tenant}`])
    }
    expect(breakdown(db, 'A', 'shared', 'os')[0]?.avgReliability).toBe(90.5)
    expect(breakdown(db, 'B', 'shared', 'os')[0]?.avgReliability).toBe(50.5)
  })

  it("storing one connection's list leaves the other's alone", () => {
    const before = counts('B')
    storeViewerList(db, 'A', 'shared', [{ viewerId: 'v1', os: 'Linux' }] as ViewerRecord[], T0 + 60_000, 1)
    expect(viewerPage(db, 'A', 'shared', { sort: 'viewerId' }).rows.map((r) => r.os)).toEqual(['Linux'])
    expect(viewerPage(db, 'B', 'shared', { sort: 'viewerId' }).rows.map((r) => r.os)).toEqual(['macOS', 'macOS'])
    expect(counts('B')).toEqual(before)
  })

  it('deleting one connection removes all its rows, and none of the other’s', () => {
    const a = counts('A')
    expect(Object.values(a).every((n) => n > 0)).toBe(true)
    expect(deleteConnection(db, 'B')).toBe(true)
    expect(counts('B')).toEqual(Object.fromEntries(TABLES.map((t) => [t, 0])))
    expect(counts('A')).toEqual(a)
    // Nothing left behind that no longer joins to a connection: every row left is A's.
    const everything = Object.fromEntries(TABLES.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]))
    expect(everything).toEqual(a)
    expect(viewerPage(db, 'A', 'shared', { sort: 'viewerId' }).total).toBe(2)
    expect(breakdown(db, 'A', 'shared', 'os')).toHaveLength(1)
    expect(db.pragma('foreign_key_check')).toEqual([])
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
  })
})
