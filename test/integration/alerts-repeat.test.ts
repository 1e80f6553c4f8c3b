// Repeats of an unacknowledged critical through the core (issue 16): a real incident from the
// simulator fires a critical; with "repeat every minute" on, the same alert is pushed again as
// `repeated` once a minute (on the pollers' clock, between polls too) until it is acknowledged.
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from '../support/poll-stores'
import { acknowledgeAlert } from '../../src/main/core/store/alerts'
import { setAlertRules } from '../../src/main/core/store/settings'
import { startSimulator } from '../../src/main/core/simulator/server'
import type { AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storeOn } from '../support/store-on'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('repeat for unacknowledged criticals', () => {
  it('pushes the firing critical again every period until it is acknowledged', async () => {
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 50, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const { db, target } = simulatorCache(sim)
    setAlertRules(db, { repeatCritical: { enabled: true, everyMinutes: 1 } })
    const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep: async () => undefined, maxAttempts: 2 } })
    const hub = new EventHub()
    const pushes: { at: number; push: AlertsChanged }[] = []
    hub.subscribe((name, payload) => {
      if (name === 'alertsChanged') pushes.push({ at: timers.now, push: payload as AlertsChanged })
    })
    const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
    await group.start([{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }])
    cleanups.push(() => group.stop())
    await group.idle()
    const advance = (ms: number) => timers.advance(ms, () => group.idle())
    await advance(60_000)

    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!.eventSessionId
    sim.faults.incident(victim, { drop: 30, minutes: 30 })
    await advance(60_000)
    const critical = pushes.flatMap((p) => p.push.fired).find((a) => a.rule === 'reliability-below' && a.severity === 'critical')
    expect(critical).toBeDefined()
    const firedAt = Date.parse(critical!.firedAt!)

    await advance(3 * 60_000)
    const repeats = pushes.filter((p) => p.push.repeated.length > 0)
    expect(repeats.map((p) => p.push.repeated.map((a) => a.id))).toEqual([[critical!.id], [critical!.id], [critical!.id]])
    // Once a minute after it fired, each within one clock tick (10 s).
    repeats.forEach((p, i) => {
      expect(p.at - firedAt).toBeGreaterThanOrEqual((i + 1) * 60_000)
      expect(p.at - firedAt).toBeLessThanOrEqual((i + 1) * 60_000 + 10_000)
    })

    acknowledgeAlert(db, critical!.id, 'on it', timers.now)
    const before = pushes.length
    await advance(3 * 60_000)
    expect(pushes.slice(before).filter((p) => p.push.repeated.length > 0)).toEqual([])
  }, 60_000)
})
