// The app's pollers on a simulator over loopback, into a fresh cache, on a clock the test moves by
// hand, with every alertsChanged push kept: the stage of the alert tests that drive a real
// incident (alerts-incident, alerts-site, alerts-end-reasons).
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import { ReportingClient } from '../../src/main/core/api/client'
import type { DataSource } from '../../src/main/core/app/demo-source'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from './poll-stores'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import type { AlertsChanged } from '../../src/shared/alerts'
import type { ManualTimers } from './manual-timers'
import { simulatorCache } from './simulator-connection'
import { storeOn } from './store-on'

export interface PolledSimulator {
  db: Db
  /** The simulator's connection in the cache (c1). */
  target: ConnectionTarget
  /** The pollers, with the monitor and its live board. */
  group: PollerGroup
  pushes: AlertsChanged[]
  /** Moves the clock on by `ms`, letting every poll due meanwhile finish. */
  advance(ms: number): Promise<void>
}

/** A source the pollers poll: `sim` through the connection `target`, on the test's clock. */
export function simulatorSource(target: ConnectionTarget, sim: RunningSimulator, timers: ManualTimers): DataSource {
  const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep: async () => undefined, maxAttempts: 2 } })
  return { target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }
}

/** Polls `sim` (discovery every 30 s, live details every 15 s, viewers every minute) until `cleanups` run. */
export async function pollSimulator(sim: RunningSimulator, timers: ManualTimers, cleanups: (() => Promise<void> | void)[]): Promise<PolledSimulator> {
  const { db, target } = simulatorCache(sim)
  const hub = new EventHub()
  const pushes: AlertsChanged[] = []
  hub.subscribe((name, payload) => {
    if (name === 'alertsChanged') pushes.push(payload as AlertsChanged)
  })
  const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
  await group.start([simulatorSource(target, sim, timers)])
  cleanups.push(() => group.stop())
  await group.idle()
  return { db, target, group, pushes, advance: (ms) => timers.advance(ms, () => group.idle()) }
}
