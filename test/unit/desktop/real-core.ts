// The real core on a clock the test moves, for the desktop tests: the simulator over loopback,
// a SQLite cache, the pollers, the alert rules, the monitor that decides the situation and the
// live rows, and the requests the tray and notifications make, dispatched as the app does.
// startAppCore takes no clock or timers, so this composes the same parts as it does
// (core/app/start.ts) with the test's ManualTimers.
import { onTestFinished } from 'vitest'
import { ReportingClient } from '../../../src/main/core/api/client'
import { alertHandlers } from '../../../src/main/core/alerts/handlers'
import { createDispatch, type Handlers } from '../../../src/main/core/app/dispatch'
import { EventHub } from '../../../src/main/core/app/event-hub'
import { PollerGroup } from '../../../src/main/core/app/pollers'
import { storesOf } from '../../support/poll-stores'
import type { AppCore } from '../../../src/main/core/app/types'
import { startSimulator } from '../../../src/main/core/simulator/server'
import { getAlertRules, setAlertRules } from '../../../src/main/core/store/settings'
import { T0 } from '../../support/fake-clock'
import { ManualTimers } from '../../support/manual-timers'
import { saveSimulatorConnection, simulatorCache } from '../../support/simulator-connection'
import type { RunningSimulator } from '../../../src/main/core/simulator/server'
import type { DataSource } from '../../../src/main/core/app/demo-source'
import { typedFace } from '../../../src/main/core/app/typed-face'
import { storeOn } from '../../support/store-on'

/** Details every 15 s (the app's default), as the alert rules count polls. */
export const DETAIL_MS = 15_000

/**
 * A core polling a quiet simulated tenant ("Tenant", connection c1) of `liveSessions` sessions,
 * and one more tenant of its own simulator for each of `others` (connections c2, c3, …). Only the
 * reliability-below rule is on, so each test's trouble raises exactly the alert it builds. Closed
 * when the test ends.
 */
export async function realCore(liveSessions = 3, others: readonly string[] = []) {
  const timers = new ManualTimers(T0)
  const quiet = async (): Promise<RunningSimulator> => {
    const started = await startSimulator({
      clock: timers.clock,
      liveSessions,
      endedSessions: 0,
      viewersPerSession: 50,
      churnSessions: false,
      randomIncidents: false
    })
    onTestFinished(() => started.close())
    return started
  }
  const sim = await quiet()
  const { db, target } = simulatorCache(sim)
  const otherSims = await Promise.all(others.map(() => quiet()))
  const rules = getAlertRules(db)
  setAlertRules(db, {
    ...rules,
    reliabilityFalling: { ...rules.reliabilityFalling, enabled: false },
    viewersDropping: { ...rules.viewersDropping, enabled: false }
  })
  const sourceOf = (tenant: RunningSimulator, to: typeof target): DataSource => ({
    target: to,
    client: new ReportingClient(to, async () => tenant.credentials, {
      clock: timers.clock,
      retry: { sleep: async () => undefined, maxAttempts: 2 }
    }),
    lookbackDays: 1,
    isDemo: false,
    close: async () => undefined
  })
  const hub = new EventHub()
  const store = storeOn(db)
  const group = await PollerGroup.open(store, hub, { discoveryMs: 30_000, detailMs: DETAIL_MS, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
  const { monitor } = group
  // Only what the desktop asks for; any other request fails as an internal error.
  const handlers: Partial<Handlers> = {
    ...alertHandlers(store, {
      clock: timers.clock,
      situation: () => monitor.situation(),
      changes: monitor.changes,
      publishAlerts: (change, announcement) => monitor.publishAlerts(change, announcement),
      publishBoard: () => monitor.publishBoard(),
      reevaluate: (connectionId) => group.reevaluate(connectionId)
    }),
    getStatus: () => group.status(),
    listLiveSessions: () => monitor.board.current(),
    setPaused: async ({ paused, connectionId }) => {
      await group.setPaused(paused, connectionId)
      return group.status()
    }
  }
  const dispatch = createDispatch(handlers as Handlers)
  const core: AppCore = {
    dispatch,
    ...typedFace(dispatch, (listener) => hub.subscribe(listener)),
    onEvent: (listener) => hub.subscribe(listener),
    recordProblem: () => undefined,
    close: () => group.stop()
  }
  await group.start([
    sourceOf(sim, target),
    ...otherSims.map((other, i) => sourceOf(other, saveSimulatorConnection(db, other, `c${i + 2}`, others[i])))
  ])
  onTestFinished(() => group.stop())
  await group.idle()

  const settle = async (): Promise<void> => {
    await group.idle()
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  /** Moves the clock, letting every poll and every answer it causes finish. */
  const advance = (ms: number): Promise<void> => timers.advance(ms, settle)

  /** The live sessions the simulator serves, as the service names them. */
  const live = () => sim.world.sessions.filter((s) => !s.hasEnded)

  /** The session's reliability held at `level` (0–100) from now on, as the next poll sees it. */
  const holdReliability = (eventSessionId: string, level: number): void => {
    const session = live().find((s) => s.eventSessionId === eventSessionId)!
    sim.faults.incident(eventSessionId, { drop: session.baselineReliability - level, minutes: 60 })
  }

  return { core, timers, sim, otherSims, db, group, advance, settle, live, holdReliability }
}

export type RealCore = Awaited<ReturnType<typeof realCore>>
