// The alerts through the app API, as every face uses them: the demo with an incident on cue
// (`serve --demo-incident`), the alertsChanged push, then list, acknowledge, snooze, override,
// pause. A real SQLite file and the demo simulator over loopback; the test waits for pushes,
// never for a set time.
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AlertsPageSchema, type AlertsPage } from '../../src/shared/alerts'
import { Cleanups, Pushes, startCore, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-alerts-app-')

describe('alerts through the app API', () => {
  it('pushes the demo incident, then lists, acknowledges, snoozes, overrides and pauses', async () => {
    const core = await startCore(cleanups, {
      db: join(tempDir(), 'cache.db'),
      cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 },
      demoIncidentAfterSeconds: 0
    })
    const pushes = new Pushes(core)

    const push = await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'))
    const alert = push.fired.find((a) => a.rule === 'reliability-below')
    expect(alert).toMatchObject({ connectionId: 'demo', connectionName: 'Demo data', state: 'firing', severity: 'critical' })
    expect(push.situation).toMatchObject({ worst: 'critical', tone: 'critical', tray: 'critical' })
    expect(push.changed.map((a) => a.id)).toEqual(expect.arrayContaining(push.fired.map((a) => a.id)))
    // One incident, one session: every alert in the push is about it.
    expect(new Set(push.fired.map((a) => a.eventSessionId))).toEqual(new Set([alert?.eventSessionId]))
    const id = alert?.id ?? 0

    const page = await value<AlertsPage>(core, 'listAlerts', { eventSessionId: alert?.eventSessionId })
    expect(page.alerts[0]).toMatchObject({ state: 'firing' })
    expect(page.situation.firing).toBeGreaterThanOrEqual(1)
    expect(page.situation.worst).toBe('critical')
    expect(AlertsPageSchema.parse(page)).toEqual(page)

    const acked = pushes.next('alertsChanged', (p) => p.changed.some((a) => a.id === id && a.state === 'acknowledged'))
    const afterAck = await value<AlertsPage>(core, 'acknowledgeAlert', { id, note: 'looking' })
    expect(afterAck.alerts.find((a) => a.id === id)).toMatchObject({ state: 'acknowledged' })
    // Acknowledged, it still fires: counted and marked, never an all-clear.
    expect(afterAck.situation).toMatchObject({ worst: 'critical', tray: 'critical' })
    expect(afterAck.situation.acknowledged).toBeGreaterThanOrEqual(1)
    expect((await acked).fired).toEqual([])

    const snoozed = await value<AlertsPage>(core, 'snoozeAlert', { id, until: '1h' })
    expect(snoozed.alerts.find((a) => a.id === id)?.snoozedUntil).not.toBeNull()
    expect(await core.dispatch('snoozeAlert', { id: 999_999, until: '1h' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/no alert 999999/) }
    })

    const override = await value(core, 'setSessionAlertOverride', {
      connectionId: 'demo',
      eventSessionId: alert?.eventSessionId,
      thresholds: { warning: 60, critical: 50 }
    })
    expect(override).toEqual({ muted: false, thresholds: { warning: 60, critical: 50 } })
    expect(
      await value(core, 'setSessionAlertOverride', { connectionId: 'demo', eventSessionId: alert?.eventSessionId, muted: true })
    ).toEqual({ muted: true, thresholds: { warning: 60, critical: 50 } })

    // Muted, at once (no poll in between): the alert says so; unmuted, it is snoozed again, as it
    // was before, not firing.
    const stateNow = async () => (await value<AlertsPage>(core, 'listAlerts', { eventSessionId: alert?.eventSessionId })).alerts.find((a) => a.id === id)?.state
    expect(await stateNow()).toBe('muted')
    await value(core, 'setSessionAlertOverride', { connectionId: 'demo', eventSessionId: alert?.eventSessionId, muted: false })
    expect(await stateNow()).toBe('snoozed')
    // Acknowledged, muted, unmuted: acknowledged again.
    await value(core, 'acknowledgeAlert', { id, note: 'still looking' })
    await value(core, 'setSessionAlertOverride', { connectionId: 'demo', eventSessionId: alert?.eventSessionId, muted: true })
    expect(await stateNow()).toBe('muted')
    await value(core, 'setSessionAlertOverride', { connectionId: 'demo', eventSessionId: alert?.eventSessionId, muted: false })
    expect(await stateNow()).toBe('acknowledged')

    const paused = await value<AlertsPage>(core, 'pauseNotifications', { minutes: 60 })
    expect(Date.parse(paused.situation.notificationsPausedUntil ?? '')).toBeGreaterThan(Date.now())

    const trayPaused = pushes.next('alertsChanged', (p) => p.situation.tray === 'paused')
    await value(core, 'setPaused', { paused: true })
    expect((await trayPaused).situation).toMatchObject({ tray: 'paused', pollingPaused: true })
  }, 30_000)
})
