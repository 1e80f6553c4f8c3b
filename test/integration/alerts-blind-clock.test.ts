// Monitor-blind on its own clock (issue 16): the service starts failing every request and the
// poller backs off (its next attempt minutes away); the blind alert must still fire on time,
// within one tick of the blind clock after the rule's minutes, not at the next poll attempt.
// The app's pollers against the simulator over loopback, on a clock the test moves by hand.
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { BLIND_CHECK_MS } from '../../src/main/core/app/blind-clock'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from '../support/poll-stores'
import { listAlerts } from '../../src/main/core/store/alerts'
import { startSimulator } from '../../src/main/core/simulator/server'
import { DEFAULT_ALERT_RULES, type AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storeOn } from '../support/store-on'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('monitor blind', () => {
  it('fires on time while the poller backs off, and resolves at the first poll that succeeds', async () => {
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 20, churnSessions: false, randomIncidents: false })
    const { db, target } = simulatorCache(sim)
    // Retries wait as the service says, on the test's clock: a Retry-After of 300 s holds a
    // unit of work (and, before the blind clock, every judgement) for five minutes.
    let sleeping = 0
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        sleeping++
        timers.setTimeout(() => {
          sleeping--
          resolve()
        }, ms)
      })
    const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep, maxAttempts: 4 } })
    const hub = new EventHub()
    const fired: { at: number; push: AlertsChanged }[] = []
    hub.subscribe((name, payload) => {
      const push = payload as AlertsChanged
      if (name === 'alertsChanged' && (push.fired.length || push.resolved.length)) fired.push({ at: timers.now, push })
    })
    const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
    await group.start([{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }])
    cleanups.push(() => sim.close(), () => group.stop())
    await group.idle()
    // Settled when the pollers are idle, or parked in a retry wait (which only moving time ends)
    // with what the clock judged meanwhile judged.
    const settle = async (): Promise<void> => {
      let settled = false
      const parked = async (): Promise<void> => {
        while (!settled && sleeping === 0) await new Promise((resolve) => setImmediate(resolve))
        await group.judged()
      }
      await Promise.race([group.idle(), parked()])
      settled = true
    }
    const advance = (ms: number) => timers.advance(ms, settle)
    await advance(60_000)
    expect(listAlerts(db, {}, timers.now)).toEqual([])

    // Every request is refused from now on, with "come back in 5 minutes".
    const broke = timers.now
    sim.faults.rateLimit(Number.POSITIVE_INFINITY, { status: 503, retryAfterSeconds: 300 })
    const blindAfter = DEFAULT_ALERT_RULES.monitorBlind.minutes * 60_000
    await advance(blindAfter + 3 * BLIND_CHECK_MS)

    const blind = fired.find((f) => f.push.fired.some((a) => a.rule === 'monitor-blind'))
    expect(blind).toBeDefined()
    // The last success was at most one detail poll before the break: the rule's minutes after
    // it, plus at most one tick of the blind clock.
    const late = (blind?.at ?? Number.POSITIVE_INFINITY) - broke
    expect(late).toBeGreaterThan(blindAfter - 15_000)
    expect(late).toBeLessThanOrEqual(blindAfter + BLIND_CHECK_MS)
    expect(blind?.push.situation).toMatchObject({ tone: 'blind', tray: 'blind' })

    // The service answers again: the next attempt succeeds and the alert resolves.
    sim.faults.reset()
    await advance(25 * 60_000)
    expect(fired.some((f) => f.push.resolved.some((a) => a.rule === 'monitor-blind'))).toBe(true)
  }, 30_000)
})
