// A sync pass bounded and stopped from the top (issue 13), against the simulator over loopback
// into a real SQLite file: a pass whose viewer lists hang ends at its deadline with one problem,
// keeping what is whole; a poller paused in the middle of a pass ends it at once, sends nothing
// more, records the run as stopped, and polls again when resumed.
import { describe, expect, it, onTestFinished } from 'vitest'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { startSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import { listSyncRuns } from '../../src/main/core/store/sync-runs'
import { CancelledError } from '../../src/main/core/net/abort'
import { Poller, type PollOutcome } from '../../src/main/core/sync/poller'
import { syncPass, type SyncProgress } from '../../src/main/core/sync/sync-pass'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

const LIVE = 8
/** Longer than any pass here: a request held this long is one that hangs. */
const HANG_MS = 60_000

async function setup(options: SimulatorOptions = {}) {
  const sim = await startSimulator({ liveSessions: LIVE, endedSessions: 0, viewersPerSession: 60, churnSessions: false, ...options })
  onTestFinished(() => sim.close())
  const { db, target } = simulatorCache(sim)
  // The app's client as it is: the default 20 s request timeout, far beyond the deadlines here.
  const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
  const requestsSeen = (): number => Object.values(sim.stats.requests).reduce((a, b) => a + b, 0)
  return { sim, db, client, requestsSeen }
}

const count = (db: Db, sql: string): number => (db.prepare(sql).get() as { n: number }).n
const heldLists = (db: Db): number => count(db, 'SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NULL')
const stagedLists = (db: Db): number => count(db, 'SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NOT NULL')

/** Once every live session's details are in (the first time), every request from then on hangs: the viewer lists. */
function hangViewerLists(sim: { faults: { slowResponses(count: number, ms: number): unknown } }): (p: SyncProgress) => void {
  let armed = false
  return (p) => {
    if (armed || p.phase !== 'details' || p.done !== p.total) return
    armed = true
    sim.faults.slowResponses(Infinity, HANG_MS)
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('a pass deadline', () => {
  it('ends a pass whose viewer lists hang at the deadline: one problem, sessions and snapshots kept, no list', async () => {
    const { sim, db, client } = await setup()
    const deadlineMs = 1500
    const started = performance.now()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 7, deadlineMs, onProgress: hangViewerLists(sim) })
    const elapsed = performance.now() - started

    expect(elapsed).toBeLessThan(deadlineMs + 1000)
    expect(sim.stats.count('viewers')).toBeGreaterThan(0) // the lists were asked for, and hung
    expect(report.stopped).toBe(false)
    expect(report.problems).toEqual([{ kind: 'network', message: expect.stringMatching(/the pass did not finish within 1\.5 s \(its deadline\)/) }])
    expect(count(db, "SELECT COUNT(*) AS n FROM diagnostics WHERE message LIKE '%(its deadline)%'")).toBe(1)
    // What was whole before the deadline is kept; no list was whole, none is held or half-staged.
    expect(report.listed).toBe(LIVE)
    expect(count(db, 'SELECT COUNT(*) AS n FROM sessions')).toBe(LIVE)
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(LIVE)
    expect(report.viewerLists).toBe(0)
    expect(heldLists(db)).toBe(0)
    expect(stagedLists(db)).toBe(0)
    expect(count(db, 'SELECT COUNT(*) AS n FROM viewers')).toBe(0)
  })

  it('keeps the lists that were whole before it, each with every viewer', async () => {
    const { sim, db, client } = await setup()
    const report = await syncPass({
      ...storesOf(db),
      connectionId: 'c1',
      client,
      lookbackDays: 7,
      concurrency: 1,
      deadlineMs: 1500,
      // Two lists stored, then every request hangs.
      onProgress: (p) => {
        if (p.phase === 'viewers' && p.done === 2) sim.faults.slowResponses(Infinity, HANG_MS)
      }
    })
    expect(report.problems).toHaveLength(1)
    expect(report.viewerLists).toBeGreaterThanOrEqual(2)
    expect(report.viewerLists).toBeLessThan(LIVE)
    expect(heldLists(db)).toBe(report.viewerLists)
    expect(stagedLists(db)).toBe(0)
    const stored = db
      .prepare('SELECT vl.event_session_id AS id, vl.viewer_count AS listed, (SELECT COUNT(*) FROM viewers v WHERE v.list_id = vl.id) AS n FROM viewer_lists vl')
      .all() as { id: string; listed: number; n: number }[]
    for (const list of stored) {
      expect(list.n, list.id).toBe(sim.world.find(list.id)?.viewers.length)
      expect(list.listed, list.id).toBe(list.n)
    }
  })
})

describe('a poller paused in the middle of a pass', () => {
  it('ends the pass at once, sends nothing more, records it stopped; resume polls again', async () => {
    const { sim, db, client, requestsSeen } = await setup({ liveSessions: 4 })
    const polled: PollOutcome[] = []
    const poller = new Poller(storesOf(db).store, client, {
    viewerStore: storesOf(db).viewerStore,
      connectionId: 'c1',
      cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 },
      onProgress: hangViewerLists(sim),
      onPolled: (outcome) => polled.push(outcome)
    })
    onTestFinished(() => poller.stop())
    poller.start()
    await until(() => sim.stats.count('viewers') > 0, 'a viewer list in flight')

    const seenAtPause = requestsSeen()
    const pausedAt = performance.now()
    poller.pause()
    await poller.idle()
    expect(performance.now() - pausedAt).toBeLessThan(2000)
    await new Promise((r) => setTimeout(r, 300))
    expect(requestsSeen()).toBe(seenAtPause)

    expect(poller.currentStatus.state).toBe('paused')
    expect(listSyncRuns(db, 'c1')).toMatchObject([{ kind: 'discovery', outcome: 'stopped', snapshots: 4, viewerLists: 0, problems: 0 }])
    expect(polled).toEqual([]) // a stop is neither a success nor a failure to report
    expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots')).toBe(4)
    expect(heldLists(db)).toBe(0)
    expect(stagedLists(db)).toBe(0)

    sim.faults.reset()
    poller.resume()
    await until(() => polled.length > 0, 'a pass after resume')
    expect(polled[0]).toMatchObject({ stopped: false, problems: [], listed: 4, viewerLists: 4 })
    expect(listSyncRuns(db, 'c1').map((r) => r.outcome)).toEqual(['ok', 'stopped'])
    expect(heldLists(db)).toBe(4)
  })
})

describe('work queued behind the unit in hand', () => {
  it('never starts once the poller is stopped: stop ends at once, nothing more is sent', async () => {
    const { sim, db, client, requestsSeen } = await setup({ liveSessions: 2 })
    sim.faults.slowResponses(Infinity, HANG_MS)
    const poller = new Poller(storesOf(db).store, client, {
    viewerStore: storesOf(db).viewerStore, connectionId: 'c1', cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 60_000 } })
    poller.start()
    await until(() => sim.stats.dataRequests > 0, 'the pass in flight')
    const refresh = poller.refreshSession(sim.world.sessions[0]!.eventSessionId) // waits for the pass

    const seenAtStop = requestsSeen()
    const stoppedAt = performance.now()
    await poller.stop()
    expect(performance.now() - stoppedAt).toBeLessThan(2000)
    await expect(refresh).rejects.toBeInstanceOf(CancelledError)
    await new Promise((r) => setTimeout(r, 300))
    expect(requestsSeen()).toBe(seenAtStop)
    expect(listSyncRuns(db, 'c1').map((r) => [r.kind, r.outcome])).toEqual([['discovery', 'stopped']])
  })

  it('a round of live details queued behind a refresh does not start once paused', async () => {
    const { sim, db, client, requestsSeen } = await setup({ liveSessions: 2 })
    const timers = new ManualTimers(Date.now())
    const polled: PollOutcome[] = []
    const poller = new Poller(storesOf(db).store, client, {
    viewerStore: storesOf(db).viewerStore,
      connectionId: 'c1',
      cadences: { discoveryMs: 60_000, detailMs: 1000, viewersMs: 60_000 },
      clock: timers.clock,
      timers,
      onPolled: (outcome) => polled.push(outcome)
    })
    onTestFinished(() => poller.stop())
    poller.start()
    await until(() => polled.length > 0, 'the first pass')
    await poller.idle()

    sim.faults.slowResponses(Infinity, HANG_MS)
    const before = sim.stats.count('session')
    const refresh = poller.refreshSession(sim.world.sessions[0]!.eventSessionId)
    await until(() => sim.stats.count('session') > before, 'the refresh in flight')
    // The detail cadence comes round: its unit queues behind the refresh.
    await timers.advance(1000, () => new Promise((r) => setTimeout(r, 20)))

    const seenAtPause = requestsSeen()
    poller.pause()
    await expect(refresh).rejects.toBeInstanceOf(CancelledError)
    await poller.idle()
    await new Promise((r) => setTimeout(r, 300))
    expect(requestsSeen()).toBe(seenAtPause)
    expect(listSyncRuns(db, 'c1').map((r) => [r.kind, r.outcome])).toEqual([
      ['refresh', 'stopped'],
      ['discovery', 'ok']
    ])
  })
})
