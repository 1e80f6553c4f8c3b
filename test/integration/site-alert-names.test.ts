// A failing office by its name (issue 24, item 2): one office's viewers fall to 0.30 while the
// session's own score holds, through the app's pollers, the simulator over loopback, the stored
// viewer lists and the rules, on a clock the test moves by hand. The office is named only after
// its alert fired: from then on every text reads by its name (the alert's summary, the session's
// live row, webhook bodies, the desktop's and the browser's notifications, the HTML report), and
// the live row carries the office's line whatever the session's own verdict.
import { afterEach, describe, expect, it } from 'vitest'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from '../support/poll-stores'
import { buildSessionReport } from '../../src/main/core/app/session-report'
import { reportHtml } from '../../src/main/core/report/report-html'
import { listAlerts } from '../../src/main/core/store/alerts'
import { setSiteName } from '../../src/main/core/store/site-names'
import { bodyFor } from '../../src/main/core/webhooks/bodies'
import { alertEventsOf } from '../../src/main/core/webhooks/enqueue'
import { firedText } from '../../src/main/desktop/alert-text'
import { planNotification } from '../../src/renderer/src/lib/notify'
import { startSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import type { AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { pollSimulator, simulatorSource } from '../support/polled-simulator'
import { saveSimulatorConnection, simulatorCache } from '../support/simulator-connection'
import { storeOn } from '../support/store-on'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const OFFICE = 'Leeds office'

/** A simulator on the test's clock, with no incident of its own; closed after the test. */
async function quietSimulator(timers: ManualTimers, options: SimulatorOptions) {
  const sim = await startSimulator({ clock: timers.clock, endedSessions: 0, churnSessions: false, randomIncidents: false, ...options })
  cleanups.push(() => sim.close())
  return sim
}

describe('a site alert by its name', () => {
  it("reads by the office's name everywhere once it has one, even one given after it fired, and shows on its session's row", async () => {
    const timers = new ManualTimers(T0)
    const sim = await quietSimulator(timers, { liveSessions: 2, viewersPerSession: 400 })
    const { db, target, pushes, group, advance } = await pollSimulator(sim, timers, cleanups)
    await advance(3 * 60_000)

    // The victim's busiest site watches at 30; nobody has named it yet.
    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!
    const counts = new Map<number, number>()
    for (const v of victim.viewers) counts.set(v.siteCode, (counts.get(v.siteCode) ?? 0) + 1)
    const [site] = [...counts].sort((a, b) => b[1] - a[1])[0]!
    sim.faults.siteIncident(victim.eventSessionId, site, { reliability: 30, minutes: 30 })
    pushes.length = 0
    await advance(4 * 60_000)
    const [fired] = pushes.flatMap((p) => p.fired)
    expect(fired).toMatchObject({ rule: 'site-reliability', site: String(site), siteName: null, severity: 'critical' })
    expect(fired?.summary).toMatch(new RegExp(`^Site ${site}: reliability \\d+(\\.\\d)? for \\d+ viewers`))

    // The session's row: its own verdict good, and the office's line (by code while unnamed).
    const rowOf = async () => (await group.monitor.board.sessions()).find((s) => s.eventSessionId === victim.eventSessionId)!
    expect((await rowOf()).health).toBe('good')
    expect((await rowOf()).siteAlert).toMatchObject({ site: String(site), label: `Site ${site}`, severity: 'critical', state: 'firing' })
    expect((await rowOf()).siteAlert?.reliability).toBeLessThan(40)
    expect((await group.monitor.board.sessions()).filter((s) => s.siteAlert).map((s) => s.eventSessionId)).toEqual([victim.eventSessionId])

    // Named now, after the alert fired: every text reads by the name.
    setSiteName(db, site, OFFICE)
    const codeWords = new RegExp(`\\bSite ${site}\\b`)
    const [alert] = listAlerts(db, {}, timers.now).filter((a) => a.state !== 'resolved')
    expect(alert?.summary).toMatch(new RegExp(`^${OFFICE}: reliability \\d+(\\.\\d)? for \\d+ viewers, below the site critical level 60; the session 9\\d`))
    expect((await rowOf()).siteAlert?.label).toBe(OFFICE)
    expect((await rowOf()).alert?.summary).toMatch(new RegExp(`^${OFFICE}: `))

    const [event] = await alertEventsOf(storeOn(db).read, { fired: [alert!], resolved: [], changed: [] })
    for (const format of ['json', 'teams', 'slack'] as const) {
      const body = bodyFor(format, event!)
      expect(body, format).toContain(`${OFFICE}: reliability`)
      expect(body, format).not.toMatch(codeWords)
    }
    const desktop = firedText([alert!])
    expect(desktop.title).toBe(`${OFFICE} critical: ${victim.eventName}`)
    expect(desktop.body).toMatch(new RegExp(`^${OFFICE}: `))
    const browser = planNotification(
      { ...pushes.at(-1)!, fired: [alert!], changed: [], resolved: [], repeated: [], silenced: [] },
      { now: timers.now, desktop: false, permission: 'granted', pageHidden: false }
    )
    expect(browser?.body).toMatch(new RegExp(`^${OFFICE}: `))
    const report = reportHtml((await buildSessionReport(storeOn(db).read, target.id, victim.eventSessionId, timers.now))!)
    expect(report).toContain(`${OFFICE}: reliability`)
    expect(report).not.toMatch(codeWords)
    // One connection polled, as the situation says: its sessions are named without it.
    expect(pushes.at(-1)?.situation.connectionsPolled).toBe(1)
  }, 60_000)

  it('says in every alerts push how many connections are polled, and pushes again when that changes (issue 24, item 6)', async () => {
    const timers = new ManualTimers(T0)
    const simA = await quietSimulator(timers, { liveSessions: 1, viewersPerSession: 20 })
    const simB = await quietSimulator(timers, { liveSessions: 1, viewersPerSession: 20 })
    const { db, target } = simulatorCache(simA)
    const targetB = saveSimulatorConnection(db, simB, 'c2', 'Tenant B')
    const hub = new EventHub()
    const said: number[] = []
    hub.subscribe((name, payload) => {
      if (name === 'alertsChanged') said.push((payload as AlertsChanged).situation.connectionsPolled!)
    })
    const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers })
    cleanups.push(() => group.stop())
    await group.start([simulatorSource(target, simA, timers), simulatorSource(targetB, simB, timers)])
    await group.idle()
    expect(said.length).toBeGreaterThan(0)
    expect(new Set(said)).toEqual(new Set([2]))
    expect((await group.monitor.situation()).connectionsPolled).toBe(2)

    // One of them disabled: nothing about alerts changed, but sessions are named otherwise now.
    await group.stop()
    said.length = 0
    await group.start([simulatorSource(target, simA, timers)])
    await group.idle()
    expect(said[0]).toBe(1)
  }, 60_000)
})
