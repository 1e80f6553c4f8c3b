// A site alert (issue 16): one office's viewers fall to 0.30 reliability while the session's
// own score holds. Through the app's pollers, the simulator over loopback (its site incident),
// the stored viewer lists and the rules, on a clock the test moves by hand: exactly one alert,
// naming that site, fires; none for the session; it resolves once the site recovers.
import { localContext } from '../../src/main/core/team/local-actor'
import { afterEach, describe, expect, it } from 'vitest'
import { listAlerts } from '../../src/main/core/store/alerts'
import { screenHandlers } from '../../src/main/core/app/screen-handlers'
import { alertEventsOf } from '../../src/main/core/webhooks/enqueue'
import { setSiteName } from '../../src/main/core/store/site-names'
import { startSimulator } from '../../src/main/core/simulator/server'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { pollSimulator } from '../support/polled-simulator'
import { storeOn } from '../support/store-on'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('site alerts', () => {
  it('fire once for the one site that degrades while the session holds, naming it, and resolve after it recovers', async () => {
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 400, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const { db, pushes, advance } = await pollSimulator(sim, timers, cleanups)
    await advance(3 * 60_000)
    expect(listAlerts(db, {}, timers.now)).toEqual([])

    // The victim's biggest site: its viewers fall to 30 (0.30), the session's score is untouched.
    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!
    const counts = new Map<number, number>()
    for (const v of victim.viewers) counts.set(v.siteCode, (counts.get(v.siteCode) ?? 0) + 1)
    const [site] = [...counts].sort((a, b) => b[1] - a[1])[0]!
    setSiteName(db, site, 'London')
    sim.faults.siteIncident(victim.eventSessionId, site, { reliability: 30, minutes: 6 })
    pushes.length = 0
    await advance(4 * 60_000)

    const fired = pushes.flatMap((p) => p.fired)
    expect(fired.map((a) => [a.rule, a.eventSessionId, a.site])).toEqual([['site-reliability', victim.eventSessionId, String(site)]])
    expect(fired[0]).toMatchObject({ siteName: 'London', severity: 'critical', state: 'firing' })
    expect(fired[0]?.summary).toMatch(new RegExp(`^London: reliability \\d+(\\.\\d)? for \\d+ viewers, below the site critical level 60; the session 9\\d`))
    // The session's own score held: no session alert, and no other site.
    const open = listAlerts(db, {}, timers.now).filter((a) => a.state !== 'resolved')
    expect(open.map((a) => [a.rule, a.site])).toEqual([['site-reliability', String(site)]])
    expect(pushes.at(-1)?.situation).toMatchObject({ firing: 1, worst: 'critical' })
    // The drill-down's site breakdown flags that site, and only it.
    const rows = await screenHandlers(storeOn(db), { polled: () => ['c1'], realConnectionPolled: () => true }).breakdown({
      connectionId: 'c1',
      eventSessionId: victim.eventSessionId,
      dimension: 'site'
    }, localContext())
    expect(rows.filter((r) => r.alert).map((r) => [r.key, r.name, r.alert?.state, r.alert?.severity])).toEqual([[String(site), 'London', 'firing', 'critical']])
    // A webhook names the site, with its name.
    expect((await alertEventsOf(storeOn(db).read, { fired, resolved: [], changed: [] }))[0]?.site).toBe(`${site} · London`)

    // The office recovers: two lists in a row above the level plus the margin resolve it.
    await advance(6 * 60_000)
    const resolved = pushes.flatMap((p) => p.resolved)
    expect(resolved.map((a) => [a.rule, a.site, a.endKind])).toEqual([['site-reliability', String(site), 'recovered']])
    expect(resolved[0]?.endReason).toMatch(/^recovered: the site's viewers at \d+\.\d, above the site warning level 80$/)
    expect(listAlerts(db, {}, timers.now).filter((a) => a.state !== 'resolved')).toEqual([])
  }, 60_000)
})
