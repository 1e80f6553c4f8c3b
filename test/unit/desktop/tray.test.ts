import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { Menu, resetFakeElectron, Tray } from '../../support/fake-electron'
import { createTrayController, trayStateFromAlerts } from '../../../src/main/desktop/tray'
import { MAX_MENU_SESSIONS } from '../../../src/main/desktop/tray-menu'
import { ManualTimers } from '../../support/manual-timers'
import { AT, alert, answeringCore, change, liveSession, status, world } from './alert-fixtures'

/** Lets pending promise callbacks (the fake core's answers) run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

type MenuItem = { label?: string; type?: string; enabled?: boolean; click?: () => void }

function setup(platform: NodeJS.Platform = 'linux', w = world()) {
  const timers = new ManualTimers(Date.parse(AT))
  const core = answeringCore(w, timers.clock)
  const open = vi.fn()
  const quit = vi.fn()
  const controller = createTrayController({
    core,
    resourcesDir: '/res',
    platform,
    open,
    quit,
    timers,
    now: timers.clock,
    formatTime: (ms) => new Date(ms).toISOString().slice(11, 16),
    menuThrottleMs: 1000
  })
  const tray = Tray.instances[0]!
  /** The items of the menu last set on the tray. */
  const menu = (): MenuItem[] => (tray.setContextMenu.mock.calls.at(-1)?.[0] as { items: MenuItem[] }).items
  const item = (label: string | RegExp): MenuItem => {
    const found = menu().find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label ?? '')))
    if (!found) throw new Error(`no menu item ${String(label)} in ${menu().map((i) => i.label).join(' | ')}`)
    return found
  }
  return { timers, core, open, quit, controller, tray, menu, item, world: w }
}

const iconOf = (tray: Tray): string => (tray.setImage.mock.calls.at(-1)?.[0] ?? tray.image).path

beforeEach(() => resetFakeElectron())

describe('the tray icon', () => {
  it('starts OK and follows the state each alertsChanged brings, one shape per state', async () => {
    const { tray, core, controller } = setup()
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — all clear')

    core.push('alertsChanged', change({ tray: 'critical', firing: 2, fired: [alert()] }))
    expect(controller.state).toBe('critical')
    expect(iconOf(tray)).toBe('/res/tray/tray-critical.png')
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — 2 alerts firing')

    for (const state of ['warning', 'blind', 'paused', 'ok'] as const) {
      core.push('alertsChanged', change({ tray: state, firing: state === 'ok' ? 0 : 1 }))
      expect(iconOf(tray)).toBe(`/res/tray/tray-${state}.png`)
    }
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — all clear')
  })

  it('shows paused while polling is paused, whatever the alerts say', async () => {
    const { tray, core } = setup()
    await flush()
    core.push('alertsChanged', change({ tray: 'warning', firing: 1 }))
    core.push('statusChanged', status({ paused: true }))
    expect(iconOf(tray)).toBe('/res/tray/tray-paused.png')
    core.push('statusChanged', status({ paused: false }))
    expect(iconOf(tray)).toBe('/res/tray/tray-warning.png')
  })

  it('takes its first state from the alerts already firing at start', async () => {
    const w = world({
      page: { alerts: [alert({ severity: 'warning' })], firing: 1, notificationsPausedUntil: null }
    })
    const { tray } = setup('linux', w)
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-warning.png')
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — 1 alert firing')
  })

  it('on macOS: template icons and the count as the title', async () => {
    const { tray, core } = setup('darwin')
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-okTemplate.png')
    core.push('alertsChanged', change({ tray: 'critical', firing: 3 }))
    expect(iconOf(tray)).toBe('/res/tray/tray-criticalTemplate.png')
    expect(tray.setTitle).toHaveBeenLastCalledWith('3')
    core.push('alertsChanged', change({ tray: 'ok', firing: 0 }))
    expect(tray.setTitle).toHaveBeenLastCalledWith('')
    expect(tray.handlers.has('click')).toBe(false)
  })

  it('elsewhere no title, and a click opens the window', async () => {
    const { tray, core, open } = setup('win32')
    core.push('alertsChanged', change({ tray: 'critical', firing: 3 }))
    expect(tray.setTitle).not.toHaveBeenCalled()
    tray.emit('click')
    expect(open).toHaveBeenCalledWith()
  })
})

describe('the tray menu', () => {
  it('lists the live sessions with their state, worst first, each opening its session', async () => {
    const w = world({
      live: [
        liveSession({ eventSessionId: 's1', eventName: 'Town Hall' }),
        liveSession({ eventSessionId: 's2', eventName: 'Launch' }),
        liveSession({ eventSessionId: 's3', eventName: 'Old one', hasEnded: true })
      ],
      page: {
        alerts: [alert({ eventSessionId: 's2', eventName: 'Launch', severity: 'critical' })],
        firing: 1,
        notificationsPausedUntil: null
      }
    })
    const { menu, item, open } = setup('linux', w)
    await flush()
    expect(menu().map((i) => i.label ?? i.type)).toEqual([
      'Open Eventwatch',
      'separator',
      'Live sessions',
      'Launch — critical',
      'Town Hall — OK',
      'separator',
      'Pause polling',
      'Pause notifications for 15 minutes',
      'Pause notifications for 1 hour',
      'separator',
      'Quit Eventwatch'
    ])
    item('Launch — critical').click!()
    expect(open).toHaveBeenCalledWith({ view: 'session', connectionId: 'c1', eventSessionId: 's2' })
    item('Open Eventwatch').click!()
    expect(open).toHaveBeenLastCalledWith()
  })

  it('marks every session of a connection the monitor cannot reach', async () => {
    const w = world({
      live: [liveSession({ eventSessionId: 's1', eventName: 'Town Hall' })],
      page: {
        alerts: [alert({ rule: 'monitor-blind', eventSessionId: null, eventName: null })],
        firing: 1,
        notificationsPausedUntil: null
      }
    })
    const { item } = setup('linux', w)
    await flush()
    expect(item(/^Town Hall/).label).toBe('Town Hall — cannot reach the service')
  })

  it('shows at most a screenful of sessions, then how many more', async () => {
    const live = Array.from({ length: MAX_MENU_SESSIONS + 3 }, (_, i) =>
      liveSession({ eventSessionId: `s${i}`, eventName: `Event ${String(i).padStart(2, '0')}` })
    )
    const { menu, item } = setup('linux', world({ live }))
    await flush()
    expect(menu().filter((i) => /^Event /.test(i.label ?? ''))).toHaveLength(MAX_MENU_SESSIONS)
    expect(item('3 more live sessions…')).toBeDefined()
  })

  it('pauses and resumes polling through setPaused', async () => {
    const { item, core, tray } = setup()
    await flush()
    item('Pause polling').click!()
    await flush()
    expect(core.dispatch).toHaveBeenCalledWith('setPaused', { paused: true })
    expect(iconOf(tray)).toBe('/res/tray/tray-paused.png')
    item('Resume polling').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('setPaused', { paused: false })
    expect(item('Pause polling')).toBeDefined()
  })

  it('pauses notifications for 15 min or 1 h through pauseNotifications, and resumes them', async () => {
    const { item, core, tray } = setup()
    await flush()
    item('Pause notifications for 1 hour').click!()
    await flush()
    expect(core.dispatch).toHaveBeenCalledWith('pauseNotifications', { minutes: 60 })
    expect(item('Notifications paused until 10:00').enabled).toBe(false)
    expect(tray.setToolTip).toHaveBeenLastCalledWith('Eventwatch — all clear, notifications paused until 10:00')

    item('Resume notifications').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('pauseNotifications', { minutes: 0 })
    item('Pause notifications for 15 minutes').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('pauseNotifications', { minutes: 15 })
    expect(item('Notifications paused until 09:15')).toBeDefined()
  })

  it('quits from the menu', async () => {
    const { item, quit } = setup()
    await flush()
    item('Quit Eventwatch').click!()
    expect(quit).toHaveBeenCalled()
  })

  it('is rebuilt once per throttle period however many events come', async () => {
    const w = world()
    const { core, timers, menu } = setup('linux', w)
    await flush()
    const builds = Menu.buildFromTemplate.mock.calls.length

    w.live = [...w.live, liveSession({ eventSessionId: 's9', eventName: 'New event' })]
    core.push('sessionsChanged', { at: AT, liveCount: 2, storedCount: 2 })
    core.push('alertsChanged', change())
    core.push('statusChanged', status())
    expect(timers.scheduled).toHaveLength(1)
    expect(menu().some((i) => i.label === 'New event — OK')).toBe(false)

    await timers.advance(1000, flush)
    expect(Menu.buildFromTemplate.mock.calls.length).toBe(builds + 1)
    expect(menu().some((i) => i.label === 'New event — OK')).toBe(true)
  })

  it('keeps going when the core cannot answer', async () => {
    const { core, tray, menu } = setup()
    core.dispatch.mockResolvedValue({ ok: false, error: { code: 'internal', message: 'broken' } })
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await flush()
    expect(menu().map((i) => i.label)).toContain('Quit Eventwatch')
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
    error.mockRestore()
  })

  it('stops listening and removes the icon when disposed', async () => {
    const { controller, core, tray, timers } = setup()
    await flush()
    core.push('sessionsChanged', { at: AT, liveCount: 1, storedCount: 1 })
    controller.dispose()
    expect(tray.destroy).toHaveBeenCalled()
    expect(timers.scheduled).toHaveLength(0)
    expect(core.listenerCount()).toBe(0)
  })
})

describe('trayStateFromAlerts', () => {
  const page = (alerts: ReturnType<typeof alert>[]) => ({ alerts, firing: 0, notificationsPausedUntil: null })
  it('orders the states as the core does: blind, critical, warning, ok', () => {
    expect(trayStateFromAlerts(page([]))).toBe('ok')
    expect(trayStateFromAlerts(page([alert({ severity: 'warning' })]))).toBe('warning')
    expect(trayStateFromAlerts(page([alert({ severity: 'warning' }), alert({ id: 2 })]))).toBe('critical')
    expect(
      trayStateFromAlerts(page([alert(), alert({ id: 2, rule: 'monitor-blind', eventSessionId: null, state: 'acknowledged' })]))
    ).toBe('blind')
  })

  it('ignores alerts that no longer shout', () => {
    for (const state of ['acknowledged', 'snoozed', 'muted', 'pending', 'resolved'] as const) {
      expect(trayStateFromAlerts(page([alert({ state })])), state).toBe('ok')
    }
    expect(trayStateFromAlerts(page([alert({ rule: 'monitor-blind', state: 'resolved' })]))).toBe('ok')
  })
})
