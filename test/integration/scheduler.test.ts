// The poller's cadences, pause/resume, refresh-one-session and offline handling, on a clock
// the test moves by hand (shared with the simulator): no sleeps, no timing races.
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import { Poller, type Connectivity, type PollerOptions } from '../../src/main/core/sync/poller'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup(simOptions: SimulatorOptions = {}, pollerOptions: Partial<PollerOptions> = {}) {
  const timers = new ManualTimers(T0)
  let sim: RunningSimulator = await startSimulator({
    clock: timers.clock,
    liveSessions: 3,
    endedSessions: 0,
    viewersPerSession: 20,
    churnSessions: false,
    ...simOptions
  })
  const { db, target } = simulatorCache(sim)
  const client = new ReportingClient(target, async () => sim.credentials, {
    clock: timers.clock,
    retry: { sleep: async () => undefined, maxAttempts: 2 } // retries cost no real time
  })
  const connectivity: Connectivity[] = []
  const poller = new Poller(storesOf(db).store, client, {
    viewerStore: storesOf(db).viewerStore,
    connectionId: 'c1',
    cadences: { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 },
    clock: timers.clock,
    timers,
    random: () => 1, // back-off without jitter, so the test knows when the next try is
    onConnectivity: (c) => connectivity.push(c),
    ...pollerOptions
  })
  cleanups.push(
    () => sim.close(),
    () => poller.stop()
  )
  const counts = () => ({ list: sim.stats.count('sessions'), detail: sim.stats.count('session'), viewers: sim.stats.count('viewers') })
  const advance = (ms: number) => timers.advance(ms, () => poller.idle())
  const restartSimulator = async () => {
    const port = Number(new URL(sim.baseUrl).port)
    sim = await startSimulator({ clock: timers.clock, liveSessions: 3, endedSessions: 0, viewersPerSession: 20, churnSessions: false, port })
  }
  return { timers, sim: () => sim, db, poller, counts, advance, connectivity, restartSimulator }
}

const snapshotCount = (db: Db): number => (db.prepare('SELECT COUNT(*) AS n FROM snapshots').get() as { n: number }).n

describe('poller cadences', () => {
  it('lists every 30 s, snapshots live sessions every 15 s, fetches viewers every 60 s', async () => {
    const { poller, counts, advance, db } = await setup()
    poller.start()
    await poller.idle()
    expect(counts()).toEqual({ list: 1, detail: 3, viewers: 3 }) // a full pass at once

    await advance(15_000) // a detail tick: records only
    expect(counts()).toEqual({ list: 1, detail: 6, viewers: 3 })
    expect(snapshotCount(db)).toBe(6)

    await advance(15_000) // t=30 s: discovery (with details); viewers not due yet
    expect(counts()).toEqual({ list: 2, detail: 9, viewers: 3 })

    await advance(15_000) // t=45 s: details
    expect(counts()).toEqual({ list: 2, detail: 12, viewers: 3 })

    await advance(15_000) // t=60 s: discovery, and the viewers are due
    expect(counts()).toEqual({ list: 3, detail: 15, viewers: 6 })
    expect(snapshotCount(db)).toBe(15)
  })

  it('does nothing while paused, and catches up with a full pass on resume', async () => {
    const { poller, counts, advance } = await setup()
    poller.start()
    await poller.idle()
    poller.pause()
    expect(poller.currentStatus.state).toBe('paused')
    const before = counts()
    await advance(120_000)
    expect(counts()).toEqual(before)
    poller.resume()
    await advance(0)
    expect(counts().list).toBe(before.list + 1)
    expect(poller.currentStatus.state).toBe('ok')
  })

  it('refreshes one session on demand: its record, a snapshot and its viewer list', async () => {
    const { poller, counts, db, sim } = await setup()
    const id = sim().world.sessions[0]!.eventSessionId
    await poller.pollOnce()
    const before = counts()
    const result = await poller.refreshSession(id)
    expect(result.viewers).toBe(sim().world.find(id)!.viewers.length)
    expect(counts()).toEqual({ list: before.list, detail: before.detail + 1, viewers: before.viewers + 1 })
    expect(snapshotCount(db)).toBe(4)
  })
})

describe('poller housekeeping', () => {
  it('stores each viewer list with its breakdowns already summed', async () => {
    const { poller, db } = await setup()
    poller.start()
    await poller.idle()
    expect((db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get() as { n: number }).n).toBe(3)
    const withoutSums = (db.prepare('SELECT COUNT(*) AS n FROM viewer_lists WHERE breakdowns_of IS NOT fetched_at').get() as { n: number }).n
    expect(withoutSums).toBe(0)
  })
})

describe('poller offline handling', () => {
  it('says once that the service is unreachable, backs off, and says once that it is back', async () => {
    const { poller, advance, connectivity, sim, restartSimulator, timers } = await setup()
    poller.start()
    await poller.idle()
    expect(connectivity).toEqual([])

    await sim().close() // the service goes away
    await advance(15_000) // a detail tick fails: one "offline", at that moment
    expect(connectivity).toEqual([{ online: false, at: T0 + 15_000, reason: expect.stringContaining('connection refused') }])
    expect(poller.currentStatus).toMatchObject({ state: 'offline', offlineSince: T0 + 15_000 })

    // The failed detail tick handed over to discovery at once (which failed too); from there the
    // passes back off, doubling: 60 s, 120 s, 240 s. No new "offline" each time.
    const attempts: number[] = []
    for (let i = 0; i < 3; i++) {
      const next = timers.scheduled[0]!
      attempts.push(next - timers.now)
      await advance(next - timers.now)
    }
    expect(attempts).toEqual([60_000, 120_000, 240_000])
    expect(connectivity.filter((c) => !c.online)).toHaveLength(1)
    expect(poller.currentStatus.offlineSince).toBe(T0 + 15_000)

    await restartSimulator()
    await advance(timers.scheduled[0]! - timers.now)
    expect(connectivity.at(-1)).toMatchObject({ online: true, reason: null })
    expect(connectivity).toHaveLength(2)
    expect(poller.currentStatus).toMatchObject({ state: 'ok', offlineSince: null })
  })
})
