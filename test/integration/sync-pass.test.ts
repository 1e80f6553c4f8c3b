// syncPass against the simulator over loopback into a real SQLite file: complete passes, a
// failure midway that keeps only whole units, a stop request, the look-back filter.
import { describe, expect, it, onTestFinished } from 'vitest'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { startSimulator } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import type { Store } from '../../src/main/core/store/interface/store'
import { refreshDetails } from '../../src/main/core/sync/details'
import { recordedSyncPass } from '../../src/main/core/sync/recorded-pass'
import { syncPass } from '../../src/main/core/sync/sync-pass'
import { simulatorCache } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

async function setup(options: Parameters<typeof startSimulator>[0] = {}) {
  const sim = await startSimulator({ liveSessions: 3, endedSessions: 4, viewersPerSession: 120, viewersPageSize: 25, ...options })
  onTestFinished(() => sim.close())
  const { db, target } = simulatorCache(sim)
  const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
  return { sim, db, client }
}

const count = (db: Db, sql: string, ...params: unknown[]): number =>
  (db.prepare(sql).get(...params) as { n: number }).n

function viewerCountsBySession(db: Db): Map<string, number> {
  const rows = db.prepare('SELECT vl.event_session_id AS id, COUNT(*) AS n FROM viewers v JOIN viewer_lists vl ON vl.id = v.list_id GROUP BY vl.event_session_id').all() as {
    id: string
    n: number
  }[]
  return new Map(rows.map((r) => [r.id, r.n]))
}

describe('syncPass', () => {
  it('stores every session, a snapshot of each live one and every viewer list, all pages', async () => {
    const { sim, db, client } = await setup()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })

    expect(report.problems).toEqual([])
    expect(report.listed).toBe(7)
    expect(report.live).toBe(3)
    expect(report.snapshots).toBe(3)
    expect(report.viewerLists).toBe(7) // 3 live + 4 ended back-filled
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(3)
    // Every viewer of every session, across pages, exactly once.
    const stored = viewerCountsBySession(db)
    for (const session of sim.world.sessions) expect(stored.get(session.eventSessionId) ?? 0).toBe(session.viewers.length)
    expect(report.viewers).toBe(sim.world.sessions.reduce((n, s) => n + s.viewers.length, 0))
    expect(count(db, 'SELECT COUNT(*) AS n FROM viewer_connections')).toBe(report.viewers)
  })

  it('keeps only whole viewer lists when the service breaks midway, and says why', async () => {
    const { sim, db, client } = await setup()
    await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })
    const before = viewerCountsBySession(db)
    const listIds = db.prepare('SELECT id FROM viewer_lists ORDER BY id').all()
    // Now every listing breaks on its second page: each new list has its first page staged.
    sim.faults.truncateLaterPages(true)
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, concurrency: 1 })

    expect(report.viewerLists).toBe(0)
    expect(report.problems.length).toBe(3) // the three live sessions' lists (ended ones are held already)
    expect(new Set(report.problems.map((p) => p.kind))).toEqual(new Set(['response-format']))
    // The lists held before are untouched, whole; the staged pages are gone.
    expect(viewerCountsBySession(db)).toEqual(before)
    expect(db.prepare('SELECT id FROM viewer_lists ORDER BY id').all()).toEqual(listIds)
    expect(count(db, 'SELECT COUNT(*) AS n FROM viewers')).toBe([...before.values()].reduce((a, b) => a + b, 0))
    for (const session of sim.world.sessions.filter((s) => s.hasEnded)) expect(before.get(session.eventSessionId)).toBe(session.viewers.length)
    // The sessions and snapshots fetched before the failure are kept.
    expect(count(db, 'SELECT COUNT(*) AS n FROM sessions')).toBe(7)
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(6)
    expect(count(db, "SELECT COUNT(*) AS n FROM diagnostics WHERE kind = 'response-format'")).toBeGreaterThanOrEqual(3)
  })

  it('finishes the unit in hand and stops when asked', async () => {
    const { db, client } = await setup()
    const stop = new AbortController()
    const report = await syncPass({
      ...storesOf(db),
      connectionId: 'c1',
      client,
      lookbackDays: 30,
      concurrency: 1,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.phase === 'details' && p.done === 1) stop.abort()
      }
    })
    expect(report.stopped).toBe(true)
    expect(report.snapshots).toBe(1)
    expect(report.viewerLists).toBe(0)
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(1)
  })

  it('asks only for sessions inside the look-back window', async () => {
    const { sim, db, client } = await setup({ endedSessions: 6 })
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 3 })
    const from = new URLSearchParams(sim.stats.log.find((e) => e.path === '/v1/events/sessions')?.query ?? '').get('startedAtFrom')
    expect(from).not.toBeNull()
    expect(Date.now() - Date.parse(from!)).toBeGreaterThanOrEqual(3 * 86_400_000 - 60_000)
    const inWindow = sim.world.sessions.filter((s) => s.startedAt >= Date.parse(from!))
    expect(report.listed).toBe(inWindow.length)
    expect(report.listed).toBeLessThan(sim.world.sessions.length)
  })

  it('takes a last look at a session it saw live and now sees ended', async () => {
    let now = Date.parse('2026-01-05T12:00:00Z')
    const { sim, db, client } = await setup({ clock: () => now, churnSessions: true })
    await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, clock: () => now })
    const live = sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId)
    now += 4 * 3_600_000 // every one of them has ended by now
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, clock: () => now })
    const ended = live.filter((id) => sim.world.find(id)?.hasEnded)
    expect(ended.length).toBe(live.length)
    // A final record + snapshot for each, and its final viewer list.
    expect(report.snapshots).toBeGreaterThanOrEqual(ended.length)
    for (const id of ended) {
      expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots WHERE event_session_id = ?', id)).toBe(2)
      expect(count(db, 'SELECT has_ended AS n FROM sessions WHERE event_session_id = ?', id)).toBe(1)
    }
  })

  it('stores a pass in four units of work however many sessions are live: its run, the list, the records with their snapshots, its outcome', async () => {
    const { sim, db, client } = await setup({ liveSessions: 8, endedSessions: 2 })
    const { store, units } = countingUnits(storesOf(db).store)
    const report = await recordedSyncPass({ ...storesOf(db), store, connectionId: 'c1', client, lookbackDays: 30 }, 'once')

    expect(report.problems).toEqual([])
    expect(report.snapshots).toBe(8)
    expect(units.count).toBe(4)
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(8)
    // Every session stored is touched: each listed one, each live one's snapshot, each list.
    for (const session of sim.world.sessions) expect(report.touched.has(session.eventSessionId), session.eventSessionId).toBe(true)
    expect(report.touched.has('never-listed')).toBe(false)
  })

  it('stores a round of live details as one unit of work, with the problems it met', async () => {
    const { sim, db, client } = await setup({ liveSessions: 5, endedSessions: 0 })
    await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })
    const { store, units } = countingUnits(storesOf(db).store)
    const live = sim.world.sessions.map((s) => s.eventSessionId)
    const report = await refreshDetails(store, 'c1', client, [...live, 'gone-away'])

    expect(units.count).toBe(1)
    expect(report.snapshots).toBe(5)
    expect(report.problems).toHaveLength(1)
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(10)
    expect(count(db, 'SELECT COUNT(*) AS n FROM diagnostics')).toBe(1)
    for (const id of live) expect(report.touched.has(id)).toBe(true)
    expect(report.touched.has('gone-away')).toBe(false)
  })
})

/** `store`, counting the units of work begun on it. */
function countingUnits(store: Store): { store: Store; units: { count: number } } {
  const units = { count: 0 }
  return {
    units,
    store: {
      read: store.read,
      close: () => store.close(),
      schema: () => store.schema(),
      ...(store.notifications ? { notifications: store.notifications } : {}),
      withTransaction: (work, options) => {
        units.count++
        return store.withTransaction(work, options)
      }
    }
  }
}
