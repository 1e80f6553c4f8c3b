import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { Notification, resetFakeElectron } from '../../support/fake-electron'
import { createAlertNotifier } from '../../../src/main/desktop/notifications'
import { notificationsPaused } from '../../../src/shared/alerts'
import { AT, alert, change, situation } from './alert-fixtures'
import type { LinkBase } from '../../../src/shared/session-link'

const NOW = Date.parse(AT)

function setup(overrides: { focused?: boolean; sound?: boolean; warningSound?: boolean } = {}) {
  const open = vi.fn()
  const notifier = createAlertNotifier({
    open,
    isWindowFocused: () => overrides.focused ?? false,
    now: () => NOW,
    sounds: () => ({ critical: overrides.sound ?? true, warning: overrides.warningSound ?? false })
  })
  return { open, notifier }
}

beforeEach(() => resetFakeElectron())

describe('alert notifications', () => {
  it('groups the alerts fired in one evaluation into one notification', () => {
    const { notifier } = setup()
    notifier.onAlertsChanged(
      change({
        situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 3 }] }),
        fired: [
          alert({ id: 1 }),
          alert({ id: 2, eventSessionId: 's2', eventName: 'Launch' }),
          alert({ id: 3, eventSessionId: 's3', eventName: 'All hands' })
        ]
      })
    )
    expect(Notification.instances).toHaveLength(1)
    const shown = Notification.instances[0]!
    expect(shown.options).toMatchObject({ title: '3 alerts: Town Hall, Launch, …', silent: false, urgency: 'normal' })
    expect(shown.show).toHaveBeenCalledTimes(1)
  })

  it('announces again a critical nobody acknowledged, with a sound unless the setting is off', () => {
    for (const sound of [true, false]) {
      resetFakeElectron()
      const { notifier } = setup({ sound })
      notifier.onAlertsChanged(change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 1 }] }), repeated: [alert({ id: 1 })] }))
      expect(Notification.instances).toHaveLength(1)
      expect(Notification.instances[0]!.options).toMatchObject({ title: 'Still firing: Reliability critical: Town Hall', silent: !sound })
      expect(Notification.instances[0]!.options.body).toMatch(/^Not acknowledged\. /)
    }
  })

  it("sounds a warning's notification only when the warning's sound is on (off by default), whatever the critical's", () => {
    for (const [warningSound, silent] of [[undefined, true], [false, true], [true, false]] as const) {
      resetFakeElectron()
      const { notifier } = setup({ sound: true, ...(warningSound === undefined ? {} : { warningSound }) })
      notifier.onAlertsChanged(change({ situation: situation({ open: [{ state: 'firing', severity: 'warning', n: 1 }] }), fired: [alert({ severity: 'warning' })] }))
      expect(Notification.instances[0]!.options).toMatchObject({ silent })
    }
    // A critical with its own sound off stays silent, even with the warning's on.
    resetFakeElectron()
    setup({ sound: false, warningSound: true }).notifier.onAlertsChanged(change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 1 }] }), fired: [alert()] }))
    expect(Notification.instances[0]!.options).toMatchObject({ silent: true })
  })

  it('shows nothing for an evaluation without fired or resolved alerts', () => {
    const { notifier } = setup()
    notifier.onAlertsChanged(change({ situation: situation({ open: [{ state: 'firing', severity: 'critical', n: 2 }] }) }))
    expect(Notification.instances).toHaveLength(0)
  })

  it('clicking opens the session it is about', () => {
    const { notifier, open } = setup()
    notifier.onAlertsChanged(change({ fired: [alert()] }))
    expect(notifier.liveCount).toBe(1)
    Notification.instances[0]!.emit('click')
    expect(open).toHaveBeenCalledWith({ view: 'session', connectionId: 'c1', eventSessionId: 's1' })
    expect(notifier.liveCount).toBe(0)
  })

  it('clicking a notification about several sessions opens the alerts view', () => {
    const { notifier, open } = setup()
    notifier.onAlertsChanged(change({ fired: [alert(), alert({ id: 2, eventSessionId: 's2' })] }))
    Notification.instances[0]!.emit('click')
    expect(open).toHaveBeenCalledWith({ view: 'alerts' })
  })

  it('stays quiet while the situation says notifications are paused, and speaks once the pause is over', () => {
    const { notifier } = setup()
    notifier.onAlertsChanged(change({ situation: situation({ notificationsPausedUntil: NOW + 60_000 }), fired: [alert()] }))
    expect(Notification.instances).toHaveLength(0)
    notifier.onAlertsChanged(change({ situation: situation({ notificationsPausedUntil: NOW - 1 }), fired: [alert()] }))
    expect(Notification.instances).toHaveLength(1)
  })

  it('stays quiet while the situation says polling is paused', () => {
    const { notifier } = setup()
    notifier.onAlertsChanged(change({ situation: situation({ pollingPaused: true }), fired: [alert()], resolved: [alert({ id: 2, state: 'resolved' })] }))
    expect(Notification.instances).toHaveLength(0)
  })

  it('stays quiet where the OS has no notifications', () => {
    Notification.isSupported.mockReturnValue(false)
    const { notifier } = setup()
    notifier.onAlertsChanged(change({ fired: [alert()] }))
    expect(Notification.instances).toHaveLength(0)
  })

  it('tells of resolved alerts silently, and only while the window is not focused', () => {
    const away = setup({ focused: false })
    away.notifier.onAlertsChanged(change({ resolved: [alert({ state: 'resolved' })] }))
    expect(Notification.instances).toHaveLength(1)
    expect(Notification.instances[0]!.options).toMatchObject({ title: 'Resolved: Reliability critical: Town Hall', silent: true })

    const looking = setup({ focused: true })
    looking.notifier.onAlertsChanged(change({ resolved: [alert({ state: 'resolved' })] }))
    expect(Notification.instances).toHaveLength(1)
  })

  it('keeps a bounded number of notifications alive for their clicks', () => {
    const { notifier } = setup()
    for (let i = 0; i < 30; i++) notifier.onAlertsChanged(change({ fired: [alert({ id: i + 1 })] }))
    expect(notifier.liveCount).toBe(20)
    Notification.instances.at(-1)!.emit('close')
    expect(notifier.liveCount).toBe(19)
  })
})

describe('notification actions', () => {
  const BUTTONS = [
    { type: 'button', text: 'Acknowledge' },
    { type: 'button', text: 'Snooze 30 min' }
  ]
  function acting(overrides: { platform?: NodeJS.Platform; mayAct?: boolean; linkBase?: LinkBase | null } = {}) {
    const act = vi.fn()
    const notifier = createAlertNotifier({
      open: vi.fn(),
      isWindowFocused: () => false,
      now: () => NOW,
      platform: overrides.platform ?? 'darwin',
      act,
      mayAct: () => overrides.mayAct ?? true,
      linkBase: () => overrides.linkBase ?? null
    })
    return { act, notifier }
  }

  it('one alert firing, fired or announced again: the two buttons, each acting on that alert', () => {
    const { act, notifier } = acting()
    notifier.onAlertsChanged(change({ fired: [alert({ id: 4 })] }))
    notifier.onAlertsChanged(change({ repeated: [alert({ id: 5 })] }))
    const [fired, repeated] = Notification.instances
    expect(fired!.options['actions']).toEqual(BUTTONS)
    expect(repeated!.options['actions']).toEqual(BUTTONS)
    fired!.emit('action', { actionIndex: 1 }, 1)
    repeated!.emit('action', { actionIndex: 0 }, 0)
    expect(act.mock.calls).toEqual([
      [4, 'snooze'],
      [5, 'acknowledge']
    ])
    expect(notifier.liveCount).toBe(0)
  })

  it('none for several alerts at once, for resolved ones, for a viewer, or on Linux', () => {
    acting().notifier.onAlertsChanged(change({ fired: [alert(), alert({ id: 2, eventSessionId: 's2' })], resolved: [alert({ id: 3, state: 'resolved' })] }))
    acting({ mayAct: false }).notifier.onAlertsChanged(change({ fired: [alert()] }))
    acting({ platform: 'linux' }).notifier.onAlertsChanged(change({ fired: [alert()] }))
    expect(Notification.instances).toHaveLength(4)
    for (const shown of Notification.instances) expect(shown.options['actions']).toBeUndefined()
  })

  it("on a team desk, a session's notification carries the server's page for it; several sessions' do not", () => {
    const { notifier } = acting({ linkBase: { kind: 'server', origin: 'https://noc.example:4780' } })
    notifier.onAlertsChanged(change({ fired: [alert({ eventSessionId: 'a/b' })] }))
    expect(Notification.instances[0]!.options['body']).toBe('Reliability 86.2, below the critical level 90\nhttps://noc.example:4780/#session/c1/a%2Fb')
    notifier.onAlertsChanged(change({ fired: [alert(), alert({ id: 2, eventSessionId: 's2' })] }))
    expect(Notification.instances[1]!.options['body']).not.toContain('https://')
  })

  it('a session id no URL can hold (a lone surrogate) still gets its notification, without a link', () => {
    const { notifier } = acting({ linkBase: { kind: 'server', origin: 'https://noc.example:4780' } })
    notifier.onAlertsChanged(change({ fired: [alert({ eventSessionId: 'bad\uD800' })] }))
    expect(Notification.instances).toHaveLength(1)
    expect(Notification.instances[0]!.options['body']).toBe('Reliability 86.2, below the critical level 90')
  })
})

describe('notificationsPaused', () => {
  it('is paused only until a valid future instant', () => {
    expect(notificationsPaused(null, NOW)).toBe(false)
    expect(notificationsPaused('not a date', NOW)).toBe(false)
    expect(notificationsPaused(new Date(NOW + 1).toISOString(), NOW)).toBe(true)
    expect(notificationsPaused(new Date(NOW).toISOString(), NOW)).toBe(false)
  })
})
