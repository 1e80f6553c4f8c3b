// The UI's queries (store/queries) on hand-made data in a real SQLite file: sorting, filters,
// totals, chart buckets, breakdown math; plus the bookkeeping beside them (ended_observed_at,
// peak viewers, sync runs, settings, diagnostics per connection).
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { listDiagnostics, recordDiagnostic } from '../../src/main/core/store/diagnostics'
import { breakdown, pastSessions, snapshotsForChart, viewerPage } from '../../src/main/core/store/queries'
import { BREAKDOWN_DIMENSIONS } from '../../src/main/core/store/queries/breakdown'
import { storeSessionList, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { DEFAULT_RETENTION, getRetentionSettings, setRetentionSettings } from '../../src/main/core/store/settings'
import { finishSyncRun, lastFinishedSyncRun, listSyncRuns, startSyncRun } from '../../src/main/core/store/sync-runs'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { viewerStory } from '../../src/main/core/store/queries/viewer-story'

const T0 = Date.parse('2026-03-02T09:00:00Z')
const HOUR = 3_600_000
const MIN = 60_000

let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-queries-'))
  db = openDatabase(join(dir, 'cache.db'))
  addConnection('A')
})
afterEach(() => {
  if (db.open) db.close()
  rmSync(dir, { recursive: true, force: true })
})

function addConnection(id: string): void {
  upsertConnection(db, {
    id, name: `Tenant ${id}`, baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com',
    platformId: 'p', tenantId: id, clientId: 'c', isDemo: false
  })
}

function session(id: string, o: Partial<EventSessionRecord> = {}): EventSessionRecord {
  return {
    eventSessionId: id, platformId: 'p', tenantId: 't', contentId: `content-${id}`, eventName: `Event ${id}`,
    startedAt: new Date(T0).toISOString(), updatedAt: new Date(T0).toISOString(), hasEnded: true,
    viewersCount: 0, reliabilityScore: 95, cdnTraffic: 0, ecdnTraffic: 0, ...o
  }
}

const at = (ms: number): string => new Date(ms).toISOString()

describe('pastSessions', () => {
  beforeEach(() => {
    storeSessionList(db, 'A', [
      session('s1', { eventName: 'Town hall', startedAt: at(T0), reliabilityScore: 91 }),
      session('s2', { eventName: 'all-hands Q3', startedAt: at(T0 + HOUR), reliabilityScore: 99 }),
      session('s3', { eventName: 'Launch 100%_sale', startedAt: at(T0 + 2 * HOUR), reliabilityScore: 80 }),
      session('s4', { eventName: 'Live now', startedAt: at(T0 + 3 * HOUR), hasEnded: false, viewersCount: 7 }),
      session('s5', { eventName: null, startedAt: at(T0 - 24 * HOUR), reliabilityScore: 97 })
    ], T0 + 4 * HOUR)
    // Peaks: seen while live, then reported with 0 viewers once ended.
    storeSessionSnapshot(db, 'A', session('s1', { eventName: 'Town hall', updatedAt: at(T0 + 5 * HOUR), hasEnded: false, viewersCount: 300 }), T0 + 5 * HOUR)
    storeSessionSnapshot(db, 'A', session('s1', { eventName: 'Town hall', updatedAt: at(T0 + 6 * HOUR), viewersCount: 0, reliabilityScore: 91 }), T0 + 6 * HOUR)
    storeSessionSnapshot(db, 'A', session('s2', { eventName: 'all-hands Q3', startedAt: at(T0 + HOUR), updatedAt: at(T0 + 5 * HOUR), hasEnded: false, viewersCount: 1200, reliabilityScore: 99 }), T0 + 5 * HOUR)
    storeSessionSnapshot(db, 'A', session('s2', { eventName: 'all-hands Q3', startedAt: at(T0 + HOUR), updatedAt: at(T0 + 6 * HOUR), viewersCount: 0, reliabilityScore: 99 }), T0 + 6 * HOUR)
    storeViewerList(db, 'A', 's2', [{ viewerId: 'v1' }, { viewerId: 'v2' }] as ViewerRecord[], T0 + 7 * HOUR, 1)
  })

  const ids = (q: Parameters<typeof pastSessions>[1]) => pastSessions(db, q).rows.map((r) => r.eventSessionId)

  it('lists ended sessions, newest first, with the total and what the cache holds', () => {
    const page = pastSessions(db, { sort: 'started', descending: true })
    expect(page.total).toBe(4)
    expect(page.rows.map((r) => r.eventSessionId)).toEqual(['s3', 's2', 's1', 's5'])
    const s2 = page.rows[1]
    expect(s2).toMatchObject({
      connectionId: 'A', connectionName: 'Tenant A', eventName: 'all-hands Q3', hasEnded: true,
      peakViewers: 1200, viewerListCount: 2, viewerListFetchedAt: at(T0 + 7 * HOUR), startedAt: at(T0 + HOUR)
    })
    expect(page.rows[0]?.viewerListCount).toBeNull()
    expect(ids({ sort: 'started', includeLive: true })).toEqual(['s5', 's1', 's2', 's3', 's4'])
  })

  it('says where the peak and the end come from: the polls and the service, or a viewer list fetched after the end', () => {
    const row = (id: string) => pastSessions(db, { sort: 'started' }).rows.find((r) => r.eventSessionId === id)!
    // s1: seen live (300), no list: the polls' peak; its end, the service's last update.
    expect(row('s1')).toMatchObject({ peakViewers: 300, peakSource: 'polls', peakAt: null, endedAt: at(T0 + 6 * HOUR), endedAtSource: 'service' })
    // s3: never seen live, no list: nothing known of its audience.
    expect(row('s3')).toMatchObject({ peakViewers: 0, peakSource: null })
    // s3's list, fetched after it was seen ended: three at once from 10:20, the last leaving at 11:00.
    const watched = (id: string, from: number, to: number) => ({ viewerId: id, startedAt: at(T0 + from * MIN), endedAt: at(T0 + to * MIN) })
    storeViewerList(db, 'A', 's3', [watched('a', 0, 60), watched('b', 10, 30), watched('c', 20, 40)] as ViewerRecord[], T0 + 8 * HOUR, 1)
    expect(row('s3')).toMatchObject({ peakViewers: 3, peakSource: 'viewers', peakAt: at(T0 + 20 * MIN), endedAt: at(T0 + 60 * MIN), endedAtSource: 'viewers' })
    // s1's peak seen live (300) stays above a list's smaller one, which then says nothing of the peak.
    storeViewerList(db, 'A', 's1', [watched('a', 0, 60)] as ViewerRecord[], T0 + 8 * HOUR, 1)
    expect(row('s1')).toMatchObject({ peakViewers: 300, peakSource: 'polls', endedAtSource: 'viewers' })
    // A live session has no end yet.
    expect(pastSessions(db, { sort: 'started', includeLive: true }).rows.find((r) => r.eventSessionId === 's4')).toMatchObject({ endedAt: null, endedAtSource: null })
  })

  it("counts a list's viewers without usable times apart, and leaves them out of its peak: no start, or an end before the start", () => {
    const row = (id: string) => pastSessions(db, { sort: 'started' }).rows.find((r) => r.eventSessionId === id)!
    const viewer = (id: string, from: number | null, to: number | null) => ({
      viewerId: id,
      ...(from === null ? {} : { startedAt: at(T0 + from * MIN) }),
      ...(to === null ? {} : { endedAt: at(T0 + to * MIN) })
    })
    storeViewerList(
      db, 'A', 's3',
      // Two at once from 10:10; one with no start; one that "ended" before it started, over both.
      [viewer('a', 0, 60), viewer('b', 10, 30), viewer('c', null, 20), viewer('d', 50, 5)] as ViewerRecord[],
      T0 + 8 * HOUR, 1
    )
    expect(row('s3')).toMatchObject({ peakViewers: 2, peakSource: 'viewers', peakAt: at(T0 + 10 * MIN), peakUntimed: 2 })
    // A list where every time is usable says none was left out.
    storeViewerList(db, 'A', 's5', [viewer('a', 0, 60)] as ViewerRecord[], T0 + 8 * HOUR, 1)
    expect(row('s5')).toMatchObject({ peakViewers: 1, peakSource: 'viewers', peakUntimed: 0 })
  })

  it('sorts by name (case-insensitive, unnamed last either way), peak viewers and reliability', () => {
    expect(ids({ sort: 'name' })).toEqual(['s2', 's3', 's1', 's5'])
    expect(ids({ sort: 'name', descending: true })).toEqual(['s1', 's3', 's2', 's5'])
    expect(ids({ sort: 'viewers', descending: true })).toEqual(['s2', 's1', 's5', 's3'])
    expect(ids({ sort: 'reliability' })).toEqual(['s3', 's1', 's5', 's2'])
  })

  it('searches names and ids as plain text (LIKE wildcards are literal)', () => {
    expect(ids({ sort: 'started', search: 'TOWN' })).toEqual(['s1'])
    expect(ids({ sort: 'started', search: '%_' })).toEqual(['s3'])
    expect(ids({ sort: 'started', search: 's5' })).toEqual(['s5'])
    expect(ids({ sort: 'started', search: '   ' })).toHaveLength(4)
    expect(pastSessions(db, { sort: 'started', search: 'nothing like it' })).toEqual({ rows: [], total: 0 })
  })

  it('filters by start time [from, to) and pages with a stable total', () => {
    expect(ids({ sort: 'started', from: T0, to: T0 + 2 * HOUR })).toEqual(['s1', 's2'])
    const first = pastSessions(db, { sort: 'started', limit: 3, offset: 0 })
    const second = pastSessions(db, { sort: 'started', limit: 3, offset: 3 })
    expect([first.total, second.total]).toEqual([4, 4])
    expect([...first.rows, ...second.rows].map((r) => r.eventSessionId)).toEqual(['s5', 's1', 's2', 's3'])
    expect(pastSessions(db, { sort: 'started', limit: 0 }).rows).toEqual([])
  })

  it('is scoped to the connection asked for, or spans all of them', () => {
    addConnection('B')
    storeSessionList(db, 'B', [session('b1', { startedAt: at(T0) })], T0)
    expect(ids({ sort: 'started', connectionId: 'B' })).toEqual(['b1'])
    expect(pastSessions(db, { sort: 'started', connectionId: 'A' }).total).toBe(4)
    expect(pastSessions(db, { sort: 'started' }).total).toBe(5)
    expect(pastSessions(db, { sort: 'started', connectionId: 'nobody' })).toEqual({ rows: [], total: 0 })
  })
})

describe('when a session was seen ending, and its peak', () => {
  const observed = (id: string) =>
    db.prepare('SELECT ended_observed_at AS e, peak_viewers AS p FROM sessions WHERE event_session_id = ?').get(id) as { e: number | null; p: number }

  it('is null while live, set at the first poll that sees it ended, and kept from then on', () => {
    storeSessionList(db, 'A', [session('s', { hasEnded: false, viewersCount: 40, updatedAt: at(T0) })], T0)
    expect(observed('s')).toEqual({ e: null, p: 40 })
    storeSessionSnapshot(db, 'A', session('s', { hasEnded: false, viewersCount: 90, updatedAt: at(T0 + MIN) }), T0 + MIN)
    storeSessionSnapshot(db, 'A', session('s', { hasEnded: true, viewersCount: 0, updatedAt: at(T0 + 2 * MIN) }), T0 + 2 * MIN)
    expect(observed('s')).toEqual({ e: T0 + 2 * MIN, p: 90 })
    storeSessionList(db, 'A', [session('s', { hasEnded: true, updatedAt: at(T0 + 3 * MIN) })], T0 + 3 * MIN)
    expect(observed('s').e).toBe(T0 + 2 * MIN)
    // Reported live again (a service hiccup): live sessions carry no end.
    storeSessionList(db, 'A', [session('s', { hasEnded: false, updatedAt: at(T0 + 4 * MIN) })], T0 + 4 * MIN)
    expect(observed('s').e).toBeNull()
  })

  it('is the first sighting for a session first seen already ended, whose count after the end is no peak', () => {
    // The service's viewersCount once a session is over (some give everyone who watched) is no
    // concurrent audience: no poll saw it live, so it has no peak from polls (issue 24).
    storeSessionList(db, 'A', [session('old', { hasEnded: true, viewersCount: 12 })], T0 + HOUR)
    expect(observed('old')).toEqual({ e: T0 + HOUR, p: 0 })
  })
})

describe('snapshotsForChart', () => {
  beforeEach(() => {
    storeSessionList(db, 'A', [session('s', { hasEnded: false }), session('other', { hasEnded: false })], T0)
    for (let i = 0; i < 10; i++) {
      const t = T0 + i * MIN
      storeSessionSnapshot(db, 'A', session('s', { hasEnded: false, updatedAt: at(t), viewersCount: i * 10, reliabilityScore: 100 - i, cdnTraffic: i }), t)
    }
    storeSessionSnapshot(db, 'A', session('other', { hasEnded: false, updatedAt: at(T0), viewersCount: 5 }), T0)
  })

  it('returns every snapshot, oldest first, when they fit', () => {
    const series = snapshotsForChart(db, 'A', 's')
    expect(series.total).toBe(10)
    expect(series.bucketed).toBe(false)
    expect(series.points.map((p) => p.viewersCount)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90])
    expect(series.points[3]).toEqual({
      takenAt: T0 + 3 * MIN, viewersCount: 30, reliabilityScore: 97, cdnTraffic: 3, ecdnTraffic: 0,
      minReliabilityScore: 97, maxViewersCount: 30, samples: 1
    })
    expect(snapshotsForChart(db, 'A', 's', { maxPoints: 10 }).bucketed).toBe(false)
  })

  it('averages into at most maxPoints time buckets, keeping each bucket’s extremes', () => {
    const series = snapshotsForChart(db, 'A', 's', { maxPoints: 5 })
    expect(series).toMatchObject({ total: 10, bucketed: true })
    expect(series.points).toHaveLength(5)
    expect(series.points[0]).toEqual({
      takenAt: T0 + 30_000, viewersCount: 5, reliabilityScore: 99.5, cdnTraffic: 0.5, ecdnTraffic: 0,
      minReliabilityScore: 99, maxViewersCount: 10, samples: 2
    })
    expect(series.points.map((p) => p.samples)).toEqual([2, 2, 2, 2, 2])
    expect(snapshotsForChart(db, 'A', 's', { maxPoints: 3 }).points.length).toBeLessThanOrEqual(3)
    expect(snapshotsForChart(db, 'A', 's', { maxPoints: 1 }).points).toEqual([
      expect.objectContaining({ viewersCount: 45, samples: 10, maxViewersCount: 90, minReliabilityScore: 91 })
    ])
  })

  it('keeps to the window [from, to) and to the session and connection asked for', () => {
    const series = snapshotsForChart(db, 'A', 's', { from: T0 + 2 * MIN, to: T0 + 5 * MIN })
    expect(series.points.map((p) => p.takenAt)).toEqual([T0 + 2 * MIN, T0 + 3 * MIN, T0 + 4 * MIN])
    expect(snapshotsForChart(db, 'A', 'other').total).toBe(1)
    expect(snapshotsForChart(db, 'B', 's')).toEqual({ points: [], total: 0, bucketed: false })
  })
})

const viewer = (id: string, o: Partial<ViewerRecord> = {}, site?: number, type?: unknown): ViewerRecord =>
  ({
    viewerId: id,
    ...(site === undefined && type === undefined
      ? {}
      : { networkConnections: [{ siteCode: site, type, publicIp: `203.0.113.${id.length}`, privateIp: `10.0.0.${id.length}` }] }),
    ...o
  }) as ViewerRecord

function storeViewers(): void {
  storeSessionList(db, 'A', [session('s', { hasEnded: false })], T0)
  storeViewerList(db, 'A', 's', [
    viewer('alpha', { deviceType: 'Desktop', os: 'Windows', app: 'Browser', reliabilityScore: 90, rebufferingTime: 10, viewingTime: 90, cdnErrors: 1, cdnResponses: 100, startedAt: at(T0) }, 101, { kind: 'wired' }),
    viewer('bravo', { deviceType: 'Mobile', os: 'iOS', app: 'App', reliabilityScore: 70, rebufferingTime: 30, viewingTime: 70, cdnErrors: 0, cdnResponses: 0, startedAt: at(T0 + MIN) }, 202, { type: 'wifi' }),
    viewer('charlie', { deviceType: 'Desktop', os: 'macOS', app: 'Browser', reliabilityScore: 95, rebufferingTime: 0, viewingTime: 0, cdnErrors: 5, cdnResponses: 50 }, 101, 'cellular'),
    viewer('delta', { deviceType: 'Desktop', os: 'Windows', app: 'Teams', reliabilityScore: 60, viewingTime: 40 }, 202, { other: 1 }),
    viewer('echo', { deviceType: 'TV' }),
    {
      ...viewer('foxtrot', { deviceType: 'Mobile', os: 'Android', reliabilityScore: 80, rebufferingTime: 5, viewingTime: 95 }),
      networkConnections: [{ siteCode: 303, type: { kind: 'vpn' } }, { siteCode: 101, type: { kind: 'wired' } }]
    } as ViewerRecord
  ], T0 + HOUR, 1)
}

describe('viewerPage', () => {
  beforeEach(storeViewers)
  const page = (q: Parameters<typeof viewerPage>[3]) => viewerPage(db, 'A', 's', q)
  const ids = (q: Parameters<typeof viewerPage>[3]) => page(q).rows.map((r) => r.viewerId)

  it('sorts by reliability either way with unknown values last, and gives the total', () => {
    const worst = page({ sort: 'reliabilityScore' })
    expect(worst.total).toBe(6)
    expect(worst.fetchedAt).toBe(at(T0 + HOUR))
    expect(worst.rows.map((r) => r.viewerId)).toEqual(['delta', 'bravo', 'foxtrot', 'alpha', 'charlie', 'echo'])
    expect(ids({ sort: 'reliabilityScore', descending: true })).toEqual(['charlie', 'alpha', 'foxtrot', 'bravo', 'delta', 'echo'])
  })

  it('sorts by the derived ratios (division by zero is unknown, so last)', () => {
    expect(ids({ sort: 'rebufferingRatio', descending: true })).toEqual(['bravo', 'alpha', 'foxtrot', 'echo', 'delta', 'charlie'])
    // Ties (here: the unknowns) keep the direction asked for, by storage order.
    expect(ids({ sort: 'cdnErrorRate', descending: true })).toEqual(['charlie', 'alpha', 'foxtrot', 'echo', 'delta', 'bravo'])
    const rows = page({ sort: 'viewerId' }).rows
    expect(rows.find((r) => r.viewerId === 'alpha')).toMatchObject({ rebufferingRatio: 0.1, cdnErrorRate: 0.01, siteCode: 101, connectionType: 'wired', startedAt: at(T0) })
    expect(rows.find((r) => r.viewerId === 'bravo')).toMatchObject({ rebufferingRatio: 0.3, cdnErrorRate: null, connectionType: 'wifi' })
    expect(rows.find((r) => r.viewerId === 'charlie')).toMatchObject({ rebufferingRatio: null, connectionType: 'cellular' })
    expect(rows.find((r) => r.viewerId === 'delta')).toMatchObject({ connectionType: '{"other":1}' })
    expect(rows.find((r) => r.viewerId === 'echo')).toMatchObject({ siteCode: null, connectionType: null, startedAt: null })
    // The first network connection speaks for the viewer.
    expect(rows.find((r) => r.viewerId === 'foxtrot')).toMatchObject({ siteCode: 303, connectionType: 'vpn' })
  })

  it('sorts text columns case-insensitively and by site', () => {
    expect(ids({ sort: 'os' })).toEqual(['foxtrot', 'bravo', 'charlie', 'alpha', 'delta', 'echo'])
    expect(ids({ sort: 'siteCode' })).toEqual(['alpha', 'charlie', 'bravo', 'delta', 'foxtrot', 'echo'])
    // By the first connection's public IP as text; viewers without one (echo, foxtrot) last.
    expect(ids({ sort: 'publicIp' })).toEqual(['alpha', 'bravo', 'delta', 'charlie', 'echo', 'foxtrot'])
  })

  it('filters by site, device, OS, app, connection type, unknown (null) and text, with matching totals', () => {
    expect(page({ sort: 'viewerId', filter: { siteCode: 101 } })).toMatchObject({ total: 2 })
    expect(ids({ sort: 'viewerId', filter: { siteCode: 101 } })).toEqual(['alpha', 'charlie'])
    expect(ids({ sort: 'viewerId', filter: { deviceType: 'Desktop', os: 'Windows' } })).toEqual(['alpha', 'delta'])
    expect(ids({ sort: 'viewerId', filter: { app: 'Teams' } })).toEqual(['delta'])
    expect(ids({ sort: 'viewerId', filter: { connectionType: 'wired' } })).toEqual(['alpha'])
    expect(ids({ sort: 'viewerId', filter: { os: null } })).toEqual(['echo'])
    expect(ids({ sort: 'viewerId', filter: { siteCode: null } })).toEqual(['echo'])
    expect(ids({ sort: 'viewerId', filter: { text: 'RAV' } })).toEqual(['bravo'])
    expect(ids({ sort: 'viewerId', filter: { text: '10.0.0.7' } })).toEqual(['charlie'])
    expect(page({ sort: 'viewerId', filter: { text: '_' } })).toEqual({ rows: [], total: 0, fetchedAt: at(T0 + HOUR) })
  })

  it('keeps only the viewers still watching when the list was fetched (a start and no end), with other filters too', () => {
    expect(page({ sort: 'viewerId', filter: { watching: true } })).toMatchObject({ total: 2 })
    expect(ids({ sort: 'viewerId', filter: { watching: true } })).toEqual(['alpha', 'bravo'])
    expect(ids({ sort: 'viewerId', filter: { watching: true, deviceType: 'Desktop' } })).toEqual(['alpha'])
    // The same count the story gives.
    expect(viewerStory(db, 'A', 's')?.stillWatching).toBe(2)
  })

  it('pages: limit and offset over a stable order', () => {
    const first = page({ sort: 'reliabilityScore', limit: 4 })
    const rest = page({ sort: 'reliabilityScore', limit: 4, offset: 4 })
    expect([first.total, rest.total]).toEqual([6, 6])
    expect([...first.rows, ...rest.rows].map((r) => r.viewerId)).toEqual(['delta', 'bravo', 'foxtrot', 'alpha', 'charlie', 'echo'])
  })

  it('is empty (no fetch time) when the cache holds no list for the session', () => {
    expect(viewerPage(db, 'A', 'unknown', { sort: 'reliabilityScore' })).toEqual({ rows: [], total: 0, fetchedAt: null })
  })
})

/** As a list stored before the writer kept its sums: none kept, so the first request scans. */
function forgetBreakdowns(): void {
  db.exec('DELETE FROM viewer_breakdowns; UPDATE viewer_lists SET breakdowns_of = NULL')
}

// The same answers whether the sums were kept with the list or are scanned from its rows.
describe.each([
  ['kept when the list was stored', () => undefined],
  ['scanned from the stored rows', forgetBreakdowns]
])('breakdown, %s', (_, prepare) => {
  beforeEach(() => {
    storeViewers()
    prepare()
  })

  it('groups by device type, worst average reliability first, with the ratio math', () => {
    expect(breakdown(db, 'A', 's', 'deviceType')).toEqual([
      // bravo (70: rebuffering 30 of 100, no responses) + foxtrot (80: 5 of 100)
      { key: 'Mobile', viewers: 2, avgReliability: 75, rebufferingRatio: 35 / 200, cdnErrorRate: null },
      // alpha 90 (10/100, 1/100), charlie 95 (0/0, 5/50), delta 60 (no rebuffering time known)
      { key: 'Desktop', viewers: 3, avgReliability: 245 / 3, rebufferingRatio: 10 / 100, cdnErrorRate: 6 / 150 },
      { key: 'TV', viewers: 1, avgReliability: null, rebufferingRatio: null, cdnErrorRate: null }
    ])
  })

  it('groups by site and connection type of the first network connection; unknown is null', () => {
    expect(breakdown(db, 'A', 's', 'site').map((r) => [r.key, r.viewers])).toEqual([
      ['202', 2], ['303', 1], ['101', 2], [null, 1]
    ])
    expect(breakdown(db, 'A', 's', 'connectionType').map((r) => r.key)).toEqual(['{"other":1}', 'wifi', 'vpn', 'wired', 'cellular', null])
    expect(breakdown(db, 'A', 's', 'os').map((r) => r.key)).toEqual(['iOS', 'Windows', 'Android', 'macOS', null])
    expect(breakdown(db, 'A', 's', 'app').map((r) => [r.key, r.viewers])).toEqual([['Teams', 1], ['App', 1], [null, 2], ['Browser', 2]])
  })

  it('works on a read-only connection (computed, not kept) and is [] without a list', () => {
    const file = db.name
    db.close()
    const readOnly = openDatabase(file, { readonly: true })
    try {
      expect(breakdown(readOnly, 'A', 's', 'deviceType').map((r) => r.key)).toEqual(['Mobile', 'Desktop', 'TV'])
      expect(breakdown(readOnly, 'A', 'nothing', 'deviceType')).toEqual([])
    } finally {
      readOnly.close()
    }
    db = openDatabase(file)
  })
})

describe('breakdown sums', () => {
  beforeEach(storeViewers)
  const kept = () => (db.prepare('SELECT COUNT(*) AS n FROM viewer_breakdowns').get() as { n: number }).n
  const stamp = () => db.prepare('SELECT fetched_at AS fetchedAt, breakdowns_of AS of FROM viewer_lists').get()

  it('are kept with the list, in its transaction, and follow a new list', () => {
    expect(kept()).toBeGreaterThan(0)
    expect(stamp()).toEqual({ fetchedAt: T0 + HOUR, of: T0 + HOUR })
    storeViewerList(db, 'A', 's', [viewer('x', { os: 'Linux', reliabilityScore: 50 })], T0 + 2 * HOUR, 1)
    expect(stamp()).toEqual({ fetchedAt: T0 + 2 * HOUR, of: T0 + 2 * HOUR })
    expect(breakdown(db, 'A', 's', 'os')).toEqual([{ key: 'Linux', viewers: 1, avgReliability: 50, rebufferingRatio: null, cdnErrorRate: null }])
    storeViewerList(db, 'A', 's', [], T0 + 3 * HOUR, 1)
    expect(kept()).toBe(0)
    expect(breakdown(db, 'A', 's', 'os')).toEqual([])
    expect(breakdown(db, 'A', 's', 'site')).toEqual([])
  })

  it('of a list stored without them are computed by the first request, then kept', () => {
    const keptWithList = Object.fromEntries(BREAKDOWN_DIMENSIONS.map((d) => [d, breakdown(db, 'A', 's', d)]))
    forgetBreakdowns()
    expect(kept()).toBe(0)
    const scanned = Object.fromEntries(BREAKDOWN_DIMENSIONS.map((d) => [d, breakdown(db, 'A', 's', d)]))
    expect(kept()).toBeGreaterThan(0)
    expect(stamp()).toEqual({ fetchedAt: T0 + HOUR, of: T0 + HOUR })
    expect(scanned).toEqual(keptWithList)
  })
})

describe('sync runs', () => {
  it('records start and finish, newest first; a run never finished has no outcome', () => {
    const crashed = startSyncRun(db, 'A', 'discovery', T0)
    const run = startSyncRun(db, 'A', 'once', T0 + MIN)
    expect(finishSyncRun(db, run, { outcome: 'partial', listed: 3, snapshots: 2, viewerLists: 1, viewers: 40, problems: 1, error: 'x'.repeat(900) }, T0 + 2 * MIN)).toBe(true)
    const runs = listSyncRuns(db, 'A')
    expect(runs.map((r) => r.id)).toEqual([run, crashed])
    expect(runs[0]).toMatchObject({ connectionId: 'A', kind: 'once', startedAt: T0 + MIN, finishedAt: T0 + 2 * MIN, outcome: 'partial', listed: 3, snapshots: 2, viewerLists: 1, viewers: 40, problems: 1 })
    expect(runs[0]?.error).toHaveLength(500)
    expect(runs[1]).toMatchObject({ finishedAt: null, outcome: null, listed: 0, error: null })
    expect(lastFinishedSyncRun(db, 'A')?.id).toBe(run)
    expect(finishSyncRun(db, 999_999, { outcome: 'ok' })).toBe(false)
  })

  it('refuses a run of an unknown connection and an unknown outcome', () => {
    expect(() => startSyncRun(db, 'nobody', 'discovery')).toThrow(/FOREIGN KEY/)
    const id = startSyncRun(db, 'A', 'discovery')
    expect(() => finishSyncRun(db, id, { outcome: 'weird' as 'ok' })).toThrow(/CHECK/)
  })

  it('keeps a bounded number of runs per connection', () => {
    addConnection('B')
    const other = startSyncRun(db, 'B', 'discovery', T0)
    db.transaction(() => {
      for (let i = 0; i < 10_005; i++) startSyncRun(db, 'A', 'details', T0 + i)
    })()
    expect(db.prepare("SELECT COUNT(*) AS n FROM sync_runs WHERE connection_id = 'A'").get()).toEqual({ n: 10_000 })
    expect(listSyncRuns(db, 'B').map((r) => r.id)).toEqual([other])
  })
})

describe('retention settings', () => {
  it('defaults to snapshots and viewer lists for 90 days, sessions forever', () => {
    expect(getRetentionSettings(db)).toEqual({ snapshotsDays: 90, viewerListsDays: 90, sessionsDays: null, alertsDays: 365, auditDays: 365 })
    expect(DEFAULT_RETENTION.sessionsDays).toBeNull()
  })

  it('changes some fields, validates, and survives a reopen', () => {
    expect(setRetentionSettings(db, { snapshotsDays: 30, sessionsDays: 365 })).toEqual({ snapshotsDays: 30, viewerListsDays: 90, sessionsDays: 365, alertsDays: 365, auditDays: 365 })
    expect(() => setRetentionSettings(db, { viewerListsDays: 0 })).toThrow()
    expect(() => setRetentionSettings(db, { snapshotsDays: 1.5 })).toThrow()
    const file = db.name
    db.close()
    db = openDatabase(file)
    expect(getRetentionSettings(db)).toEqual({ snapshotsDays: 30, viewerListsDays: 90, sessionsDays: 365, alertsDays: 365, auditDays: 365 })
    expect(setRetentionSettings(db, { sessionsDays: null }).sessionsDays).toBeNull()
  })

  it('falls back to the defaults for a damaged stored value', () => {
    db.prepare("INSERT INTO settings (key, value_json) VALUES ('retention', '{\"snapshotsDays\": -3, \"viewerListsDays\": 7')").run()
    expect(getRetentionSettings(db)).toEqual(DEFAULT_RETENTION)
    db.prepare("UPDATE settings SET value_json = '{\"snapshotsDays\": \"x\", \"viewerListsDays\": 7}' WHERE key = 'retention'").run()
    expect(getRetentionSettings(db)).toEqual({ snapshotsDays: 90, viewerListsDays: 7, sessionsDays: null, alertsDays: 365, auditDays: 365 })
  })
})

describe('diagnostics per connection', () => {
  it('lists one connection’s entries, and all of them without one', () => {
    addConnection('B')
    recordDiagnostic(db, { connectionId: 'A', at: T0, kind: 'network', endpoint: 'listSessions', message: 'a' })
    recordDiagnostic(db, { connectionId: 'B', at: T0, kind: 'network', endpoint: 'listSessions', message: 'b' })
    recordDiagnostic(db, { connectionId: null, at: T0, kind: 'network', endpoint: 'app', message: 'app-wide' })
    expect(listDiagnostics(db, 10, 'A').map((d) => d.message)).toEqual(['a'])
    expect(listDiagnostics(db, 10).map((d) => d.message)).toEqual(['app-wide', 'b', 'a'])
    // Each with its connection's name (Diagnostics' Connection column); the app's own by null.
    expect(listDiagnostics(db, 10).map((d) => [d.message, d.connectionId, d.connectionName])).toEqual([
      ['app-wide', null, null],
      ['b', 'B', 'Tenant B'],
      ['a', 'A', 'Tenant A']
    ])
    expect(listDiagnostics(db, 10, null).map((d) => d.message)).toEqual(['app-wide'])
  })
})

describe('a database opened read-only elsewhere', () => {
  it('answers the queries too (the browser host may open one)', () => {
    storeViewers()
    const file = db.name
    const reader = new Database(file, { readonly: true })
    try {
      expect(viewerPage(reader, 'A', 's', { sort: 'reliabilityScore' }).total).toBe(6)
      expect(pastSessions(reader, { sort: 'started', includeLive: true }).total).toBe(1)
    } finally {
      reader.close()
    }
  })
})
