// A quiet simulated world (no random incidents, no churn) whose live sessions the app's pollers
// poll rarely (every `pollMs`, blind only after an hour), on a clock the test moves by hand, into
// a real SQLite file whose every statement is logged: the stage of the tests that count what the
// core reads between polls and after one unit of work (alerts-clock-tick, judgement-incremental).
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from './poll-stores'
import { startSimulator } from '../../src/main/core/simulator/server'
import { getAlertRules, setAlertRules } from '../../src/main/core/store/settings'
import { T0 } from './fake-clock'
import { ManualTimers } from './manual-timers'
import { simulatorSource } from './polled-simulator'
import { simulatorCache } from './simulator-connection'
import { logStatements } from './statement-log'
import { storeOn } from './store-on'

export interface RarelyPolledOptions {
  liveSessions: number
  viewersPerSession: number
  pollMs: number
}

/** Its first pass done; `hub` is subscribed to before it starts, so every push is seen. */
export async function rarelyPolled(options: RarelyPolledOptions, cleanups: (() => Promise<void> | void)[], subscribe: (hub: EventHub, timers: ManualTimers) => void) {
  const timers = new ManualTimers(T0)
  const sim = await startSimulator({ clock: timers.clock, liveSessions: options.liveSessions, endedSessions: 0, viewersPerSession: options.viewersPerSession, churnSessions: false, randomIncidents: false })
  cleanups.push(() => sim.close())
  const { db, target } = simulatorCache(sim)
  // Blind only after an hour: polls this far apart are no outage here.
  const rules = getAlertRules(db)
  setAlertRules(db, { ...rules, monitorBlind: { ...rules.monitorBlind, minutes: 60 } })
  // Before the core prepares anything: every statement it runs is seen.
  const statements = logStatements(db)
  const hub = new EventHub()
  subscribe(hub, timers)
  const { pollMs } = options
  const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: pollMs, detailMs: pollMs, viewersMs: pollMs }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
  await group.start([simulatorSource(target, sim, timers)])
  cleanups.push(() => group.stop())
  await group.idle()
  return { timers, sim, db, statements, group, advance: (ms: number) => timers.advance(ms, () => group.idle()) }
}
