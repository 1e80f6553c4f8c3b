// startDesktop's tray, notifications, close-to-tray and single-instance wiring, with a fake
// electron and a fake core answering the tray's requests.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { app, BrowserWindow, fakeEvent, Notification, resetDesktop, Tray } from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'
import { APP_USER_MODEL_ID } from '../../../src/main/desktop/app-identity'
import { TRAY_HINT_TITLE } from '../../../src/main/desktop/close-to-tray'
import { ManualTimers } from '../../support/manual-timers'
import { AT, alert, answeringCore, change, situation, world } from './alert-fixtures'
import { DETAIL_MS, realCore } from './real-core'

let home: string
let core: ReturnType<typeof answeringCore>

const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

async function launch(platform: NodeJS.Platform = 'linux', timers = new ManualTimers(Date.parse(AT))) {
  startDesktop({ platform, timers, now: timers.clock })
  await vi.waitFor(() => expect(Tray.instances).toHaveLength(1))
  await flush()
  return { window: BrowserWindow.instances[0]!, tray: Tray.instances[0]!, timers }
}

type MenuItem = { label?: string; click?: () => void }
const menuItem = (tray: Tray, label: string): MenuItem =>
  (tray.setContextMenu.mock.calls.at(-1)![0] as { items: MenuItem[] }).items.find((i) => i.label === label)!

beforeEach(() => {
  core = resetDesktop(start.startAppCore, () => answeringCore(world()))
  home = mkdtempSync(join(tmpdir(), 'eventwatch-app-tray-'))
  app.getPath.mockImplementation((name: string) => join(home, name))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  delete process.env['ELECTRON_RENDERER_URL']
})

describe('the desktop app with its tray', () => {
  it('sets the app user model id on Windows, so its notifications appear', async () => {
    await launch('win32')
    expect(app.setAppUserModelId).toHaveBeenCalledWith(APP_USER_MODEL_ID)
  })

  it('does not on other systems', async () => {
    await launch('linux')
    expect(app.setAppUserModelId).not.toHaveBeenCalled()
  })

  it('keeps running in the tray when the window is closed, and says so once', async () => {
    const { window } = await launch()
    const close = fakeEvent({})
    window.emit('close', close)
    expect(close.preventDefault).toHaveBeenCalled()
    expect(window.hide).toHaveBeenCalled()
    window.emit('close', fakeEvent({}))
    expect(Notification.instances.filter((n) => n.options['title'] === TRAY_HINT_TITLE)).toHaveLength(1)
    expect(app.quit).not.toHaveBeenCalled()
  })

  it('quits for real from the tray menu: the window may then close', async () => {
    const { window, tray } = await launch()
    menuItem(tray, 'Quit Eventwatch').click!()
    expect(app.quit).toHaveBeenCalled()
    // Electron's quit: before-quit, then the windows close.
    app.emit('before-quit', fakeEvent({}))
    const close = fakeEvent({})
    window.emit('close', close)
    expect(close.preventDefault).not.toHaveBeenCalled()
    await vi.waitFor(() => expect(core.close).toHaveBeenCalled())
    expect(tray.destroy).toHaveBeenCalled()
  })

  it('a second launch brings the hidden window back', async () => {
    const { window } = await launch()
    window.emit('close', fakeEvent({}))
    app.emit('second-instance', fakeEvent({}), [], '/')
    expect(window.show).toHaveBeenCalled()
    expect(window.focus).toHaveBeenCalled()
    expect(BrowserWindow.instances).toHaveLength(1)
  })

  it('a click on an alert notification shows the window at that session', async () => {
    const { window } = await launch()
    window.emit('close', fakeEvent({}))
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 1 }] }, 2), fired: [alert()] }))
    const notification = Notification.instances.find((n) => n.options['title'] === 'Reliability critical: Town Hall')!
    notification.emit('click')
    expect(window.loadFile).toHaveBeenLastCalledWith(expect.stringMatching(/renderer[\\/]index\.html$/), {
      hash: 'session/c1/s1'
    })
    expect(window.show).toHaveBeenCalled()
    expect(window.focus).toHaveBeenCalled()
  })

  it('from the dev server, the session is in the URL hash', async () => {
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    const { window, tray } = await launch()
    menuItem(tray, 'Town Hall — good').click!()
    expect(window.loadURL).toHaveBeenLastCalledWith('http://localhost:5173/#session/c1/s1')
  })

  it('opens a new window at the session when the old one is gone', async () => {
    const { window } = await launch()
    window.emit('closed')
    core.push('alertsChanged', change({ fired: [alert(), alert({ id: 2, eventSessionId: 's2' })] }))
    Notification.instances.at(-1)!.emit('click')
    expect(BrowserWindow.instances).toHaveLength(2)
    expect(BrowserWindow.instances[1]!.loadFile).toHaveBeenCalledWith(expect.any(String), { hash: 'alerts' })
  })

  it('the tray icon follows alertsChanged', async () => {
    const { tray } = await launch()
    const blind = situation({ blind: [{ connectionId: 'c1', connectionName: 'Contoso' }], open: [{ state: 'firing', severity: 'warning', n: 1 }] }, 2)
    core.push('alertsChanged', change({ situation: blind }))
    expect(tray.setImage).toHaveBeenLastCalledWith(expect.objectContaining({ path: expect.stringMatching(/tray-blind\.png$/) }))
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — Cannot reach Contoso · 1 alert firing')
  })

  it('notifications follow the situation pushed with the alerts: none while polling is paused', async () => {
    const { window } = await launch()
    window.emit('close', fakeEvent({}))
    core.push('alertsChanged', change({ situation: situation({ pollingPaused: true }, 2), fired: [alert()] }))
    expect(Notification.instances.filter((n) => n.options['title'] === 'Reliability critical: Town Hall')).toHaveLength(0)
    core.push('alertsChanged', change({ situation: situation({}, 3), fired: [alert()] }))
    expect(Notification.instances.filter((n) => n.options['title'] === 'Reliability critical: Town Hall')).toHaveLength(1)
  })

  it('with the real core: the notification, the icon, the tooltip and the menu tell the same incident', async () => {
    const real = await realCore(3)
    start.startAppCore.mockResolvedValue(real.core)
    const { tray } = await launch('linux', real.timers)
    const victim = real.live()[0]!
    real.holdReliability(victim.eventSessionId, 85)
    await real.advance(2 * DETAIL_MS + 1_000)

    expect(Notification.instances.map((n) => n.options['title'])).toContain(`Reliability critical: ${victim.eventName}`)
    expect(tray.setImage).toHaveBeenLastCalledWith(expect.objectContaining({ path: expect.stringMatching(/tray-critical\.png$/) }))
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — 1 alert firing')
    expect(menuItem(tray, `${victim.eventName} — critical, alert firing`)).toBeDefined()
  })
})
