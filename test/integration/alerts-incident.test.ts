// The simulator's incident mode drives a real reliability drop in one session, over loopback,
// through the app's pollers and alert rules, on a clock the test moves by hand: that session's
// alert fires within one live-detail poll of the drop and resolves after recovery; no other
// session alerts, and every change arrives as one alertsChanged push.
import { afterEach, describe, expect, it } from 'vitest'
import { listAlerts } from '../../src/main/core/store/alerts'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { AlertsChangedSchema } from '../../src/shared/alerts'
import { isolatedName } from '../../src/shared/plain-text'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { pollSimulator } from '../support/polled-simulator'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function setup() {
  const timers = new ManualTimers(T0)
  // Random incidents off: the only trouble in this world is the one the test asks for.
  const sim: RunningSimulator = await startSimulator({
    clock: timers.clock,
    liveSessions: 4,
    endedSessions: 0,
    viewersPerSession: 200,
    churnSessions: false,
    randomIncidents: false
  })
  cleanups.push(() => sim.close())
  return { sim, ...(await pollSimulator(sim, timers, cleanups)) }
}

describe('alerts from a simulated incident', () => {
  it('fire for exactly the session whose reliability fell, within one live-detail poll, and resolve after recovery', async () => {
    const { sim, db, pushes, advance } = await setup()
    // Five quiet minutes: nothing alerts in a healthy world.
    await advance(5 * 60_000)
    expect(listAlerts(db, {}, T0 + 5 * 60_000)).toEqual([])
    // The only pushes so far: waiting for the first poll (no all-clear yet), then confirmed by it.
    expect(pushes.map((p) => [p.situation.tone, p.situation.headline])).toEqual([
      ['held', `No alerts · waiting for the first poll of ${isolatedName('Tenant')}`],
      ['ok', 'No alerts']
    ])
    pushes.length = 0

    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[1]?.eventSessionId ?? ''
    sim.faults.incident(victim, { drop: 25, minutes: 10 })
    await advance(15_000) // one live-detail poll

    expect(pushes).toHaveLength(1)
    expect(pushes[0]?.fired.map((a) => [a.rule, a.eventSessionId])).toEqual([['reliability-falling', victim]])
    // The falling alert fires at once; the critical level is crossed once: pending, with its severity.
    expect(pushes[0]).toMatchObject({
      situation: { firing: 1, worst: 'warning', pending: 1, worstPending: 'critical', tone: 'warning', tray: 'warning' },
      resolved: []
    })
    expect(pushes[0]?.situation.headline).toBe('1 alert firing · 1 pending critical')
    expect(pushes[0]?.changed.map((a) => [a.rule, a.state, a.severity]).sort()).toEqual([
      ['reliability-below', 'pending', 'critical'],
      ['reliability-falling', 'firing', 'warning']
    ])
    expect(AlertsChangedSchema.parse(pushes[0])).toEqual(pushes[0]) // what the faces validate

    // The next poll: two below the critical level in a row.
    await advance(15_000)
    expect(pushes.at(-1)?.fired.map((a) => [a.rule, a.eventSessionId, a.severity])).toEqual([['reliability-below', victim, 'critical']])
    expect(pushes.at(-1)?.situation).toMatchObject({ firing: 2, worst: 'critical', tray: 'critical' })
    expect(pushes.at(-1)?.situation.revision).toBeGreaterThan(pushes[0]?.situation.revision ?? Infinity)

    // Still down for a few minutes: no more notifications.
    const before = pushes.length
    await advance(3 * 60_000)
    expect(pushes.slice(before).flatMap((p) => p.fired)).toEqual([])

    sim.faults.recover(victim)
    await advance(3 * 60_000)
    const resolved = pushes.flatMap((p) => p.resolved)
    expect(resolved.map((a) => a.rule).sort()).toEqual(['reliability-below', 'reliability-falling'])
    expect(pushes.at(-1)?.situation).toMatchObject({ firing: 0, tray: 'ok', tone: 'ok', headline: 'No alerts' })
    // The score came back above the levels: each says it recovered, with the figure.
    expect(resolved.map((a) => a.endKind)).toEqual(['recovered', 'recovered'])
    for (const a of resolved) expect(a.endReason).toMatch(/^recovered: reliability 9\d\.\d, above the warning level 95$/)

    // No other session alerted, ever; the history holds the victim's two alerts, resolved.
    const all = listAlerts(db, { historyHours: 24 }, T0 + 60 * 60_000)
    expect(new Set(all.map((a) => a.eventSessionId))).toEqual(new Set([victim]))
    expect(all.map((a) => a.state)).toEqual(['resolved', 'resolved'])
  }, 60_000)
})

describe('the simulator\'s incident control', () => {
  it('drops one session at a set time when asked at start-up (serve --demo-incident)', async () => {
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 3, endedSessions: 0, viewersPerSession: 20, churnSessions: false, randomIncidents: false, incident: { afterMs: 60_000 } })
    cleanups.push(() => sim.close())
    const live = () => sim.world.sessions.filter((s) => !s.hasEnded)
    const baseline = live().map((s) => s.baselineReliability)
    timers.now += 59_000
    sim.world.advanceTo(timers.now)
    expect(live().map((s, i) => Math.abs(s.reliability - (baseline[i] ?? 0)) < 2)).toEqual([true, true, true])
    timers.now += 2_000
    sim.world.advanceTo(timers.now)
    // The first live session only: 25 points down (give or take the usual jitter), the rest as they were.
    expect(live().map((s, i) => Math.abs((baseline[i] ?? 0) - s.reliability - 25) < 1)).toEqual([true, false, false])
    expect(live().map((s, i) => Math.abs((baseline[i] ?? 0) - s.reliability) < 2)).toEqual([false, true, true])
    // Ten minutes later it is over and the score climbs back.
    timers.now += 11 * 60_000
    sim.world.advanceTo(timers.now)
    expect(Math.abs((live()[0]?.reliability ?? 0) - (baseline[0] ?? 0))).toBeLessThan(2)
  })

  it('refuses an unknown session', async () => {
    const sim = await startSimulator({ liveSessions: 1, endedSessions: 0, viewersPerSession: 5 })
    cleanups.push(() => sim.close())
    expect(() => sim.faults.incident('nope', { drop: 10, minutes: 1 })).toThrow(/no simulated session nope/)
  })
})
