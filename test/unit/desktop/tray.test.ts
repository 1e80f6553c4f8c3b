import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { Menu, resetFakeElectron, Tray } from '../../support/fake-electron'
import { createTrayController } from '../../../src/main/desktop/tray'
import { MAX_MENU_SESSIONS } from '../../../src/main/desktop/tray-menu'
import { ManualTimers } from '../../support/manual-timers'
import { AT, alert, answeringCore, change, liveSession, sessionAlert, sessionsChanged, situation, world } from './alert-fixtures'

/** Lets pending promise callbacks (the fake core's answers) run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

type MenuItem = { label?: string; type?: string; enabled?: boolean; click?: () => void; submenu?: MenuItem[] }

/** `prepare` runs before the tray is created (and asks the core). */
function setup(platform: NodeJS.Platform = 'linux', w = world(), prepare?: (core: ReturnType<typeof answeringCore>) => void, mayAcknowledge = true) {
  const timers = new ManualTimers(Date.parse(AT))
  const core = answeringCore(w, timers.clock)
  prepare?.(core)
  const open = vi.fn()
  const quit = vi.fn()
  const acknowledge = vi.fn()
  const controller = createTrayController({
    core,
    resourcesDir: '/res',
    platform,
    open,
    quit,
    acknowledge,
    mayAcknowledge: () => mayAcknowledge,
    timers,
    now: timers.clock,
    formatTime: (ms) => new Date(ms).toISOString().slice(11, 16),
    menuThrottleMs: 1000
  })
  const tray = Tray.instances[0]!
  /** The items of the menu last set on the tray. */
  const menu = (): MenuItem[] => (tray.setContextMenu.mock.calls.at(-1)?.[0] as { items: MenuItem[] }).items
  const labels = (): (string | undefined)[] => menu().map((i) => i.label ?? i.type)
  const item = (label: string | RegExp): MenuItem => {
    const found = menu().find((i) => (typeof label === 'string' ? i.label === label : label.test(i.label ?? '')))
    if (!found) throw new Error(`no menu item ${String(label)} in ${menu().map((i) => i.label).join(' | ')}`)
    return found
  }
  const asked = (name: string): number => core.dispatch.mock.calls.filter(([n]) => n === name).length
  return { timers, core, open, quit, acknowledge, controller, tray, menu, labels, item, asked, world: w }
}

const iconOf = (tray: Tray): string => (tray.setImage.mock.calls.at(-1)?.[0] ?? tray.image).path
const tooltipOf = (tray: Tray): string => tray.setToolTip.mock.calls.at(-1)?.[0] as string

beforeEach(() => resetFakeElectron())

describe('the tray icon and tooltip', () => {
  it('start from the situation the core answers, then follow each alertsChanged, one shape per state', async () => {
    const { tray, core, controller } = setup()
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')

    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 2 }] }, 2), fired: [alert()] }))
    expect(controller.state).toBe('critical')
    expect(iconOf(tray)).toBe('/res/tray/tray-critical.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — 2 alerts firing')

    const facts = {
      warning: { open: [{ state: 'firing', severity: 'warning', n: 1 }] },
      blind: { blind: [{ connectionId: 'c1', connectionName: 'Contoso' }] },
      paused: { pollingPaused: true },
      ok: {}
    } as const
    let revision = 3
    for (const [state, f] of Object.entries(facts)) {
      core.push('alertsChanged', change({ situation: situation(f, revision++) }))
      expect(iconOf(tray)).toBe(`/res/tray/tray-${state}.png`)
    }
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
  })

  it('count acknowledged alerts as firing: an acknowledged alert still fires', async () => {
    const { tray, core } = setup('darwin')
    await flush()
    const open = [
      { state: 'firing', severity: 'critical', n: 1 },
      { state: 'acknowledged', severity: 'warning', n: 2 }
    ] as const
    core.push('alertsChanged', change({ situation: situation({ open: [...open] }, 2) }))
    expect(iconOf(tray)).toBe('/res/tray/tray-criticalTemplate.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — 3 alerts firing (2 acknowledged)')
    expect(tray.setTitle).toHaveBeenLastCalledWith('3')
  })

  it('are right at once when the tray starts mid-incident', async () => {
    const w = world({ facts: { ...world().facts, open: [{ state: 'acknowledged', severity: 'warning', n: 1 }] } })
    const { tray, asked } = setup('linux', w)
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-warning.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — 1 alert firing (1 acknowledged)')
    expect(asked('listAlerts')).toBe(1)
    expect(asked('getStatus')).toBe(1) // each connection's polling status, once: pushes follow
  })

  it('ignore a situation no newer than the one shown', async () => {
    const { tray, core } = setup()
    await flush()
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 1 }] }, 5) }))
    core.push('alertsChanged', change({ situation: situation({}, 4) }))
    core.push('alertsChanged', change({ situation: situation({}, 5) }))
    expect(iconOf(tray)).toBe('/res/tray/tray-critical.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — 1 alert firing')
  })

  it("take a restarted core's situation, though it counts from lower (a new epoch), and compare again within it", async () => {
    const { tray, core } = setup()
    await flush()
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 1 }] }, 1_000) }))
    core.push('alertsChanged', change({ situation: situation({}, 1, Date.parse(AT), 'e2') }))
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'pending', severity: 'critical', n: 1 }] }, 1, Date.parse(AT), 'e2') }))
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
  })

  it('keep a situation pushed before the start-up answer, which is older', async () => {
    const { tray, core } = setup()
    // The core read the situation at revision 1 when asked; this push comes before that answer.
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'pending', severity: 'critical', n: 1 }] }, 2) }))
    await flush()
    expect(tooltipOf(tray)).toBe('Eventwatch — 1 pending critical')
  })

  it('say when polling and notifications are paused', async () => {
    const { tray, core } = setup()
    await flush()
    const until = Date.parse(AT) + 75 * 60_000
    core.push('alertsChanged', change({ situation: situation({ pollingPaused: true, notificationsPausedUntil: until }, 2) }))
    expect(iconOf(tray)).toBe('/res/tray/tray-paused.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts · polling paused · notifications paused until 10:15')
  })

  it('on macOS: template icons and the firing count as the title', async () => {
    const { tray, core } = setup('darwin')
    await flush()
    expect(iconOf(tray)).toBe('/res/tray/tray-okTemplate.png')
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 3 }] }, 2) }))
    expect(iconOf(tray)).toBe('/res/tray/tray-criticalTemplate.png')
    expect(tray.setTitle).toHaveBeenLastCalledWith('3')
    core.push('alertsChanged', change({ situation: situation({}, 3) }))
    expect(tray.setTitle).toHaveBeenLastCalledWith('')
    expect(tray.handlers.has('click')).toBe(false)
  })

  it('elsewhere no title, and a click opens the window', async () => {
    const { tray, core, open } = setup('win32')
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 3 }] }, 2) }))
    expect(tray.setTitle).not.toHaveBeenCalled()
    tray.emit('click')
    expect(open).toHaveBeenCalledWith()
  })
})

describe('the tray menu', () => {
  it('lists the live sessions with the core verdict on each, worst first, each opening its session', async () => {
    const w = world({
      live: [
        liveSession({ eventSessionId: 's1', eventName: 'Town Hall' }),
        liveSession({ eventSessionId: 's2', eventName: 'Launch', health: 'critical', reliability: 80, alert: sessionAlert({ id: 2 }) }),
        liveSession({
          eventSessionId: 's3',
          eventName: 'Keynote',
          health: 'warning',
          reliability: 93,
          alert: sessionAlert({ id: 3, state: 'acknowledged', severity: 'warning' })
        })
      ]
    })
    const { labels, item, open } = setup('linux', w)
    await flush()
    expect(labels()).toEqual([
      'Open Eventwatch',
      'separator',
      'Live sessions',
      'Launch — critical, alert firing',
      'Keynote — warning, alert acknowledged',
      'Town Hall — good',
      'Acknowledge',
      'separator',
      'Pause polling',
      'Pause notifications for 15 minutes',
      'Pause notifications for 1 hour',
      'separator',
      'Quit Eventwatch'
    ])
    item('Launch — critical, alert firing').click!()
    expect(open).toHaveBeenCalledWith({ view: 'session', connectionId: 'c1', eventSessionId: 's2' })
    item('Open Eventwatch').click!()
    expect(open).toHaveBeenLastCalledWith()
  })

  it('acknowledges from an item per alert firing and not yet acknowledged, in the trouble order; none for a viewer', async () => {
    const live = [
      liveSession({ eventSessionId: 's1', eventName: 'Town Hall', health: 'warning', reliability: 93, alert: sessionAlert({ id: 1, severity: 'warning', summary: 'Reliability 93, below the warning level 95' }) }),
      liveSession({ eventSessionId: 's2', eventName: 'Launch', health: 'critical', reliability: 80, alert: sessionAlert({ id: 2 }) }),
      liveSession({ eventSessionId: 's3', eventName: 'Keynote', health: 'critical', reliability: 85, alert: sessionAlert({ id: 3, state: 'acknowledged' }) }),
      liveSession({ eventSessionId: 's4', eventName: 'Q&A', health: 'critical', reliability: 85, alert: sessionAlert({ id: null, state: 'cooldown' }) })
    ]
    const { item, acknowledge } = setup('linux', world({ live }))
    await flush()
    const submenu = item('Acknowledge').submenu as MenuItem[]
    expect(submenu.map((i) => i.label)).toEqual([
      'Launch — Reliability 86.2, below the critical level 90',
      'Town Hall — Reliability 93, below the warning level 95'
    ])
    submenu[1]!.click!()
    expect(acknowledge).toHaveBeenCalledWith(1)

    resetFakeElectron()
    const viewer = setup('linux', world({ live }), undefined, false)
    await flush()
    expect(viewer.labels()).not.toContain('Acknowledge')
  })

  it('marks every session of a connection the core cannot reach, and only those', async () => {
    const w = world({
      live: [liveSession({ eventSessionId: 's1', eventName: 'Town Hall' }), liveSession({ connectionId: 'c2', eventSessionId: 's2', eventName: 'Launch' })],
      facts: { ...world().facts, blind: [{ connectionId: 'c1', connectionName: 'Contoso' }] }
    })
    const { item, tray } = setup('linux', w)
    await flush()
    expect(item(/^Town Hall/).label).toBe('Town Hall — cannot reach the service')
    expect(item(/^Launch/).label).toBe('Launch — good')
    expect(iconOf(tray)).toBe('/res/tray/tray-blind.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — Cannot reach Contoso')
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

  it('pauses and resumes polling through setPaused, and shows the situation the core pushes', async () => {
    const { item, core, tray } = setup()
    await flush()
    item('Pause polling').click!()
    await flush()
    expect(core.dispatch).toHaveBeenCalledWith('setPaused', { paused: true })
    expect(iconOf(tray)).toBe('/res/tray/tray-paused.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts · polling paused')
    item('Resume polling').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('setPaused', { paused: false })
    expect(item('Pause polling')).toBeDefined()
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
  })

  it('pauses notifications for 15 min or 1 h through pauseNotifications, and resumes them', async () => {
    const { item, core, tray } = setup()
    await flush()
    item('Pause notifications for 1 hour').click!()
    await flush()
    expect(core.dispatch).toHaveBeenCalledWith('pauseNotifications', { minutes: 60 })
    expect(item('Notifications paused until 10:00').enabled).toBe(false)
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts · notifications paused until 10:00')

    item('Resume notifications').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('pauseNotifications', { minutes: 0 })
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
    item('Pause notifications for 15 minutes').click!()
    await flush()
    expect(core.dispatch).toHaveBeenLastCalledWith('pauseNotifications', { minutes: 15 })
    expect(item('Notifications paused until 09:15')).toBeDefined()
  })

  it('offers to pause notifications again once a pause has ended, without a push', async () => {
    const { item, tray, timers } = setup()
    await flush()
    item('Pause notifications for 15 minutes').click!()
    await flush()
    await timers.advance(15 * 60_000, flush)
    expect(item('Pause notifications for 15 minutes')).toBeDefined()
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
  })

  it('quits from the menu', async () => {
    const { item, quit } = setup()
    await flush()
    item('Quit Eventwatch').click!()
    expect(quit).toHaveBeenCalled()
  })

  it('patches its sessions from sessionsChanged without asking again, rebuilt once per throttle period', async () => {
    const w = world({
      live: [liveSession({ eventSessionId: 's1', eventName: 'Town Hall' }), liveSession({ eventSessionId: 's2', eventName: 'Launch' })]
    })
    const { core, timers, labels, asked, tray } = setup('linux', w)
    await flush()
    const builds = Menu.buildFromTemplate.mock.calls.length

    core.push(
      'sessionsChanged',
      sessionsChanged(
        2,
        [
          liveSession({ eventSessionId: 's9', eventName: 'New event' }),
          liveSession({ eventSessionId: 's1', eventName: 'Town Hall', health: 'warning', alert: sessionAlert({ state: 'pending', severity: 'warning' }) })
        ],
        [{ connectionId: 'c1', eventSessionId: 's2' }]
      )
    )
    core.push('alertsChanged', change({ situation: situation({ open: [{ state: 'pending', severity: 'warning', n: 1 }] }, 2) }))
    core.push('sessionsChanged', sessionsChanged(2, [liveSession({ eventSessionId: 's7', eventName: 'Stale' })])) // not newer: ignored
    expect(timers.scheduled).toHaveLength(1)
    expect(labels()).toContain('Launch — good')
    // The icon and tooltip do not wait for the menu.
    expect(tooltipOf(tray)).toBe('Eventwatch — 1 pending warning')

    await timers.advance(1000, flush)
    expect(Menu.buildFromTemplate.mock.calls.length).toBe(builds + 1)
    expect(labels().filter((l) => / — /.test(l ?? ''))).toEqual(['Town Hall — warning, alert pending', 'New event — good'])
    expect(asked('listLiveSessions')).toBe(1)
    expect(asked('listAlerts')).toBe(1)
  })

  it("reads the board again when a restarted core pushes (a new epoch), though it counts from lower", async () => {
    const w = world({ boardRevision: 700, live: [liveSession({ eventSessionId: 's1', eventName: 'Before the restart' })] })
    const { core, timers, labels, asked } = setup('linux', w)
    await flush()
    expect(labels()).toContain('Before the restart — good')
    Object.assign(w, { epoch: 'e2', boardRevision: 2, live: [liveSession({ eventSessionId: 's5', eventName: 'After the restart' })] })
    core.push('sessionsChanged', sessionsChanged(1, [liveSession({ eventSessionId: 's5', eventName: 'After the restart' })], [], 'e2'))
    await timers.advance(1000, flush)
    expect(asked('listLiveSessions')).toBe(2)
    expect(labels().filter((l) => / — /.test(l ?? ''))).toEqual(['After the restart — good'])
    // Within the new epoch, revisions compare again: an older push changes nothing.
    core.push('sessionsChanged', sessionsChanged(2, [liveSession({ eventSessionId: 's6', eventName: 'Old news' })], [], 'e2'))
    await timers.advance(1000, flush)
    expect(labels().filter((l) => / — /.test(l ?? ''))).toEqual(['After the restart — good'])
  })

  it('applies pushes heard while the board was being read, once it is in', async () => {
    const { core, labels } = setup()
    // The core read the board (revision 1) when asked; these come before its answer.
    core.push('sessionsChanged', sessionsChanged(2, [liveSession({ eventSessionId: 's2', eventName: 'Launch' })]))
    core.push('sessionsChanged', sessionsChanged(1, [liveSession({ eventSessionId: 's3', eventName: 'Old news' })]))
    await flush()
    expect(labels().filter((l) => / — /.test(l ?? ''))).toEqual(['Launch — good', 'Town Hall — good'])
  })

  it('says it does not know yet when the core cannot answer, and asks again at the next push', async () => {
    let answer: Parameters<ReturnType<typeof answeringCore>['dispatch']['mockImplementation']>[0] | undefined
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { core, tray, menu, labels, timers } = setup('linux', world(), (c) => {
      answer = c.dispatch.getMockImplementation()
      c.dispatch.mockResolvedValue({ ok: false, error: { code: 'internal', message: 'broken' } })
    })
    await flush()
    expect(menu().map((i) => i.label)).toContain('Quit Eventwatch')
    expect(iconOf(tray)).toBe('/res/tray/tray-ok.png')
    expect(tooltipOf(tray)).toBe('Eventwatch — alerts not known yet')
    error.mockRestore()

    core.dispatch.mockImplementation(answer!)
    core.push('sessionsChanged', sessionsChanged(2))
    await timers.advance(1000, flush)
    expect(tooltipOf(tray)).toBe('Eventwatch — No alerts')
    expect(labels()).toContain('Town Hall — good')
  })

  it('stops listening and removes the icon when disposed', async () => {
    const { controller, core, tray, timers } = setup()
    await flush()
    core.push('sessionsChanged', sessionsChanged(2))
    controller.dispose()
    expect(tray.destroy).toHaveBeenCalled()
    expect(timers.scheduled).toHaveLength(0)
    expect(core.listenerCount()).toBe(0)
  })
})
