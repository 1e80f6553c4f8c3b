// The alerts through the app API, as every face uses them: the demo with an incident on cue
// (`serve --demo-incident`), the alertsChanged push, then list, acknowledge, snooze, override,
// pause. A real SQLite file and the demo simulator over loopback; the test waits for pushes,
// never for a set time.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { AlertsPageSchema, type AlertsChanged, type AlertsPage } from '../../src/shared/alerts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function value<T>(core: AppCore, name: string, args: unknown): Promise<T> {
  const result = await core.dispatch(name, args)
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as T
}

/** The next alertsChanged push that passes `test`. */
function nextPush(core: AppCore, test: (p: AlertsChanged) => boolean): Promise<AlertsChanged> {
  return new Promise((resolve) => {
    const stop = core.onEvent((name, payload) => {
      if (name !== 'alertsChanged' || !test(payload as AlertsChanged)) return
      stop()
      resolve(payload as AlertsChanged)
    })
  })
}

describe('alerts through the app API', () => {
  it('pushes the demo incident, then lists, acknowledges, snoozes, overrides and pauses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-alerts-app-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const core = await startAppCore({
      dbFile: join(dir, 'cache.db'),
      cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 },
      demoIncidentAfterSeconds: 0
    })
    cleanups.push(() => core.close())

    const push = await nextPush(core, (p) => p.fired.some((a) => a.rule === 'reliability-below'))
    const alert = push.fired.find((a) => a.rule === 'reliability-below')
    expect(alert).toMatchObject({ connectionId: 'demo', connectionName: 'Demo data', state: 'firing', severity: 'critical' })
    expect(push.tray).toBe('critical')
    // One incident, one session: every alert in the push is about it.
    expect(new Set(push.fired.map((a) => a.eventSessionId))).toEqual(new Set([alert?.eventSessionId]))
    const id = alert?.id ?? 0

    const page = await value<AlertsPage>(core, 'listAlerts', { eventSessionId: alert?.eventSessionId })
    expect(page.alerts[0]).toMatchObject({ state: 'firing' })
    expect(page.firing).toBeGreaterThanOrEqual(1)
    expect(AlertsPageSchema.parse(page)).toEqual(page)

    const acked = nextPush(core, () => true)
    const afterAck = await value<AlertsPage>(core, 'acknowledgeAlert', { id, note: 'looking' })
    expect(afterAck.alerts.find((a) => a.id === id)).toMatchObject({ state: 'acknowledged' })
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

    const paused = await value<AlertsPage>(core, 'pauseNotifications', { minutes: 60 })
    expect(Date.parse(paused.notificationsPausedUntil ?? '')).toBeGreaterThan(Date.now())

    const trayPaused = nextPush(core, (p) => p.tray === 'paused')
    await value(core, 'setPaused', { paused: true })
    expect((await trayPaused).tray).toBe('paused')
  }, 30_000)
})
