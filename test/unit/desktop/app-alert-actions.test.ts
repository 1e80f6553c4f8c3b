// Acting on an alert where it appears, wired by startDesktop with a fake electron on the real
// core (real-core.ts: a simulated tenant polled into a real SQLite cache, the alert requests
// dispatched as the app does, on a clock the test moves): a notification's Acknowledge and
// Snooze 30 min where the platform shows buttons, and the tray's Acknowledge, each move that
// alert in the cache, signed by this machine's user, as the window's requests would.
import { mkdtempSync, rmSync } from 'node:fs'
import { userInfo } from 'node:os'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { app, BrowserWindow, fakeCore, fakeEvent, Notification, resetDesktop, Tray } from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'
import { alertActor } from '../../../src/main/desktop/alert-actions'
import type { Alert, AlertsPage } from '../../../src/shared/alerts'
import { fail } from '../../../src/shared/result'
import { value } from '../../support/app-core'
import { DETAIL_MS, realCore, type RealCore } from './real-core'

let home: string
beforeEach(() => {
  resetDesktop(start.startAppCore, fakeCore)
  home = mkdtempSync(join(tmpdir(), 'eventwatch-alert-actions-'))
  app.getPath.mockImplementation((name: string) => join(home, name))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const ME = userInfo().username

/** The desk on the real core, as on `platform`, its window hidden to the tray. */
async function launch(platform: NodeJS.Platform) {
  const real = await realCore(3)
  start.startAppCore.mockResolvedValue(real.core)
  startDesktop({ platform, timers: real.timers, now: real.timers.clock })
  await vi.waitFor(() => expect(Tray.instances).toHaveLength(1))
  await real.advance(1_000)
  BrowserWindow.instances[0]!.emit('close', fakeEvent({}))
  return real
}

/** Holds the session's reliability at 85 until its critical alert fires: that alert's notification. */
async function fire(real: RealCore, eventSessionId: string) {
  real.holdReliability(eventSessionId, 85)
  await real.advance(2 * DETAIL_MS + 1_000)
  const session = real.live().find((s) => s.eventSessionId === eventSessionId)!
  const notification = Notification.instances.find((n) => n.options['title'] === `Reliability critical: ${session.eventName}`)
  expect(notification, 'the alert fired and was announced').toBeDefined()
  return notification!
}

/** The session's alert as the core keeps it in the cache. */
async function alertOf(real: RealCore, eventSessionId: string): Promise<Alert> {
  const page = await value<AlertsPage>(real.core, 'listAlerts', {})
  return page.alerts.find((a) => a.eventSessionId === eventSessionId)!
}

describe('acting on an alert from its notification', () => {
  for (const platform of ['darwin', 'win32'] as const) {
    it(`on ${platform}: Acknowledge and Snooze 30 min act on that alert in the core`, async () => {
      const real = await launch(platform)
      const [first, second] = real.live()

      const acknowledging = await fire(real, first!.eventSessionId)
      expect(acknowledging.options['actions']).toEqual([
        { type: 'button', text: 'Acknowledge' },
        { type: 'button', text: 'Snooze 30 min' }
      ])
      const loads = BrowserWindow.instances[0]!.loadFile.mock.calls.length
      acknowledging.emit('action', { actionIndex: 0, selectionIndex: -1 }, 0, -1)
      await vi.waitFor(async () => expect((await alertOf(real, first!.eventSessionId)).state).toBe('acknowledged'))
      expect((await alertOf(real, first!.eventSessionId)).transitions.at(-1)).toMatchObject({ state: 'acknowledged', by: ME })
      // Acting is not opening: the window stays where it was.
      expect(BrowserWindow.instances[0]!.loadFile.mock.calls.length).toBe(loads)

      const snoozing = await fire(real, second!.eventSessionId)
      const pressedAt = real.timers.clock()
      snoozing.emit('action', { actionIndex: 1, selectionIndex: -1 }, 1, -1)
      await vi.waitFor(async () => expect((await alertOf(real, second!.eventSessionId)).state).toBe('snoozed'))
      const snoozed = await alertOf(real, second!.eventSessionId)
      expect(Date.parse(snoozed.snoozedUntil!) - pressedAt).toBe(30 * 60_000)
      expect(snoozed.transitions.at(-1)).toMatchObject({ state: 'snoozed', by: ME })

      // The click still opens the session.
      snoozing.emit('click')
      expect(BrowserWindow.instances[0]!.loadFile).toHaveBeenLastCalledWith(expect.any(String), {
        hash: `session/c1/${encodeURIComponent(second!.eventSessionId)}`
      })
    })
  }

  it('on Linux: no buttons (the daemons get none from Electron); a click opens the session', async () => {
    const real = await launch('linux')
    const victim = real.live()[0]!
    const notification = await fire(real, victim.eventSessionId)
    expect(notification.options['actions']).toBeUndefined()
    notification.emit('click')
    expect(BrowserWindow.instances[0]!.loadFile).toHaveBeenLastCalledWith(expect.any(String), {
      hash: `session/c1/${encodeURIComponent(victim.eventSessionId)}`
    })
    // A desk's own notification needs no link in its body: its click is the link.
    expect(notification.options['body']).not.toContain('://')
  })
})

describe("the tray's Acknowledge", () => {
  it('acknowledges the alert it names in the core, and leaves the menu once it is', async () => {
    const real = await launch('linux')
    const victim = real.live()[0]!
    await fire(real, victim.eventSessionId)
    await real.advance(1_000)
    const menu = () => (Tray.instances[0]!.setContextMenu.mock.calls.at(-1)![0] as { items: { label?: string; submenu?: { label?: string; click?: () => void }[] }[] }).items
    const items = menu().find((i) => i.label === 'Acknowledge')!.submenu!
    expect(items.map((i) => i.label)).toEqual([`${victim.eventName} — ${(await alertOf(real, victim.eventSessionId)).summary}`])
    items[0]!.click!()
    await vi.waitFor(async () => expect((await alertOf(real, victim.eventSessionId)).state).toBe('acknowledged'))
    expect((await alertOf(real, victim.eventSessionId)).transitions.at(-1)).toMatchObject({ state: 'acknowledged', by: ME })
    await real.advance(1_000)
    expect(menu().map((i) => i.label)).not.toContain('Acknowledge')
  })
})

describe('alertActor', () => {
  it('tells the core’s refusal in its own words, and answers whether the core took it', async () => {
    const core = fakeCore()
    core.dispatch.mockResolvedValue(fail('forbidden', 'Viewers cannot acknowledge alerts.'))
    const tell = vi.fn()
    await expect(alertActor(core, tell)(7, 'acknowledge')).resolves.toBe(false)
    expect(core.dispatch).toHaveBeenCalledWith('acknowledgeAlert', { id: 7 })
    expect(tell).toHaveBeenCalledWith('Viewers cannot acknowledge alerts.')

    core.dispatch.mockResolvedValue({ ok: true, value: {} })
    await expect(alertActor(core, tell)(7, 'snooze')).resolves.toBe(true)
    expect(core.dispatch).toHaveBeenLastCalledWith('snoozeAlert', { id: 7, until: '30m' })
    expect(tell).toHaveBeenCalledTimes(1)
  })
})
