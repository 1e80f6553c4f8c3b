import { describe, expect, it } from 'vitest'
import { alertsTarget as targetOf, notificationsPaused as isPaused } from '../../src/shared/alerts'
import { notificationBlocker, planNotification, type NotifyContext } from '../../src/renderer/src/lib/notify'
import type { Alert, AlertsChanged } from '../../src/shared/alerts'
import { situationOf } from '../support/alert-fixtures'
import { HOSTILE_NAMES, unsafeCharacters } from '../support/hostile-names'

const NOW = Date.parse('2026-03-01T12:00:00Z')

function alert(id: number, over: Partial<Alert> = {}): Alert {
  return {
    id,
    rule: 'reliability-below',
    connectionId: 'c1',
    connectionName: 'Production',
    eventSessionId: `s${id}`,
    eventName: `Town hall ${id}`,
    site: null,
    siteName: null,
    state: 'firing',
    severity: 'critical',
    summary: `Reliability 70.0, below the critical level 90`,
    firedAt: '2026-03-01T11:59:00Z',
    resolvedAt: null,
    snoozedUntil: null,
    endReason: null,
    endKind: null,
    transitions: [],
    ...over
  }
}

const situation = (notificationsPausedUntil: string | null = null) => situationOf({ notificationsPausedUntil })

function change(over: Partial<AlertsChanged> = {}): AlertsChanged {
  return { situation: situation(), changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [], ...over }
}

const browser: NotifyContext = { now: NOW, desktop: false, permission: 'granted', pageHidden: false }

describe('web notifications: whether to show one', () => {
  it('shows one for a single fired alert, naming it and opening its session', () => {
    const plan = planNotification(change({ fired: [alert(1)] }), browser)
    expect(plan).toEqual({
      title: '✖ Critical: Town hall 1',
      body: 'Reliability 70.0, below the critical level 90',
      tag: 'fired:1',
      silent: false,
      target: { view: 'session', connectionId: 'c1', eventSessionId: 's1' }
    })
  })

  it('groups several fired alerts of one push into one notification that opens the alerts view', () => {
    const plan = planNotification(change({ fired: [alert(1), alert(2, { severity: 'warning', rule: 'viewers-dropping' }), alert(3)] }), browser)
    expect(plan?.title).toBe('✖ 3 alerts')
    expect(plan?.body.split('\n')).toEqual([
      '✖ Town hall 1: reliability below level',
      '▲ Town hall 2: viewers dropping',
      '✖ Town hall 3: reliability below level'
    ])
    expect(plan?.target).toEqual({ view: 'alerts' })
  })

  it('counts the alerts beyond four rather than listing them', () => {
    const fired = [1, 2, 3, 4, 5, 6].map((id) => alert(id, { severity: 'warning' }))
    const plan = planNotification(change({ fired }), browser)
    expect(plan?.title).toBe('▲ 6 alerts')
    expect(plan?.body.split('\n')).toHaveLength(5)
    expect(plan?.body).toMatch(/and 2 more$/)
  })

  it('two alerts of the same session still open that session', () => {
    const plan = planNotification(change({ fired: [alert(1), alert(2, { eventSessionId: 's1', rule: 'reliability-falling' })] }), browser)
    expect(plan?.target).toEqual({ view: 'session', connectionId: 'c1', eventSessionId: 's1' })
  })

  it('shows nothing in the desktop window, which notifies through the OS', () => {
    expect(planNotification(change({ fired: [alert(1)] }), { ...browser, desktop: true })).toBeNull()
  })

  it('shows nothing without the permission', () => {
    for (const permission of ['default', 'denied', 'unsupported'] as const) {
      expect(planNotification(change({ fired: [alert(1)] }), { ...browser, permission })).toBeNull()
    }
  })

  it('holds everything back during a maintenance pause, and shows again once it is over', () => {
    const paused = change({ fired: [alert(1)], situation: situation('2026-03-01T12:15:00Z') })
    expect(planNotification(paused, browser)).toBeNull()
    expect(planNotification(paused, { ...browser, now: Date.parse('2026-03-01T12:15:01Z') })).not.toBeNull()
  })

  it('keeps muted and snoozed alerts quiet', () => {
    const plan = planNotification(change({ fired: [alert(1, { state: 'muted' }), alert(2, { state: 'snoozed' })] }), browser)
    expect(plan).toBeNull()
  })

  it('tells of resolutions silently, and only while the page is hidden', () => {
    const resolved = change({ resolved: [alert(1, { state: 'resolved' })] })
    expect(planNotification(resolved, browser)).toBeNull()
    const plan = planNotification(resolved, { ...browser, pageHidden: true })
    expect(plan).toMatchObject({ title: '✓ Resolved: Town hall 1', silent: true, tag: 'resolved:1' })
  })

  it('says an alert ended, and why, when it did not recover', () => {
    const ended = alert(1, { state: 'resolved', endReason: 'connection disabled: no longer polled', endKind: 'unwatched' })
    const plan = planNotification(change({ resolved: [ended] }), { ...browser, pageHidden: true })
    expect(plan).toMatchObject({
      title: '■ Ended: Town hall 1',
      body: 'Ended — connection disabled: no longer polled. Reliability 70.0, below the critical level 90',
      silent: true
    })
  })

  it('tags each repeat apart, a restarted core\'s too (a new epoch, the same revision): a browser replaces a tag it has', () => {
    const repeat = (epoch: string, revision: number) =>
      planNotification(change({ situation: situationOf({ epoch, revision }), repeated: [alert(1)] }), browser)?.tag
    expect(new Set([repeat('e1', 4), repeat('e1', 5), repeat('e2', 4)]).size).toBe(3)
  })

  it('lets a firing win over resolutions in the same push', () => {
    const plan = planNotification(change({ fired: [alert(2)], resolved: [alert(1, { state: 'resolved' })] }), { ...browser, pageHidden: true })
    expect(plan?.tag).toBe('fired:2')
    expect(plan?.silent).toBe(false)
  })

  it('sends a connection-wide (monitor blind) alert to the alerts view', () => {
    const blind = alert(9, { rule: 'monitor-blind', eventSessionId: null, eventName: null })
    expect(targetOf([blind])).toEqual({ view: 'alerts' })
    expect(planNotification(change({ fired: [blind] }), browser)?.title).toBe('✖ Critical: Production')
  })
})

describe("a teammate's acknowledgement", () => {
  const acked = (by: string) =>
    alert(4, {
      state: 'acknowledged',
      transitions: [
        { at: '2026-03-01T11:59:00Z', state: 'firing', severity: 'critical', value: 70, note: null },
        { at: '2026-03-01T12:00:00Z', state: 'acknowledged', severity: 'critical', value: null, note: 'CDN ticket', by }
      ]
    })
  const team = { ...browser, self: 'bob', pageHidden: true }

  it('is announced quietly while the page is hidden, naming who, but never one of our own', () => {
    expect(planNotification(change({ changed: [acked('alice')] }), team)).toEqual({
      title: '✔ Acknowledged by alice: Town hall 4',
      body: '"CDN ticket"',
      tag: 'acknowledged:4@2026-03-01T12:00:00Z',
      silent: true,
      target: { view: 'session', connectionId: 'c1', eventSessionId: 's4' }
    })
    expect(planNotification(change({ changed: [acked('bob')] }), team)).toBeNull()
    expect(planNotification(change({ changed: [acked('alice')] }), { ...team, pageHidden: false })).toBeNull()
    // Off a team server, acknowledgements are this operator's own: nothing to announce.
    expect(planNotification(change({ changed: [acked('alice')] }), { ...browser, pageHidden: true })).toBeNull()
  })
})

describe('notification pause and blockers', () => {
  it('reads the pause instant against the clock', () => {
    expect(isPaused(null, NOW)).toBe(false)
    expect(isPaused('2026-03-01T11:59:59Z', NOW)).toBe(false)
    expect(isPaused('2026-03-01T12:00:01Z', NOW)).toBe(true)
    expect(isPaused('not a time', NOW)).toBe(false)
  })

  it('says why nothing would be shown', () => {
    expect(notificationBlocker({ desktop: false, permission: 'granted' })).toBeNull()
    expect(notificationBlocker({ desktop: true, permission: 'granted' })).toMatch(/operating system/)
    expect(notificationBlocker({ desktop: false, permission: 'denied' })).toMatch(/blocked/)
    expect(notificationBlocker({ desktop: false, permission: 'default' })).toMatch(/enable/)
  })
})

describe.each(HOSTILE_NAMES)('web notifications with a hostile name: $what', ({ name }) => {
  // Every text a push carries about the alert: the event, the connection, the summary, who
  // acknowledged and their note.
  const named = (id: number, over: Partial<Alert> = {}): Alert =>
    alert(id, {
      eventName: name,
      connectionName: name,
      summary: `Reliability 70.0 at ${name}`,
      state: 'acknowledged',
      transitions: [{ at: '2026-03-01T11:59:30Z', state: 'acknowledged', severity: 'critical', value: null, note: name, by: name }],
      ...over
    })
  const firing = (id: number): Alert => named(id, { state: 'firing', transitions: [] })

  it.each([
    ['one fired', change({ fired: [firing(1)] })],
    ['several fired', change({ fired: [firing(1), firing(2), firing(3)] })],
    ['repeated', change({ repeated: [firing(1)] })],
    ['resolved', change({ resolved: [named(1, { state: 'resolved' }), named(2, { state: 'resolved', eventName: null })] })],
    ['acknowledged by a teammate', change({ changed: [named(1)] })],
    ['acknowledged by teammates', change({ changed: [named(1), named(2, { eventName: null, eventSessionId: null })] })]
  ])('%s: plain title and lines', (_what, push) => {
    const plan = planNotification(push, { ...browser, pageHidden: true, self: 'me' })
    expect(plan).not.toBeNull()
    expect(unsafeCharacters(plan!.title)).toEqual([])
    expect(unsafeCharacters(plan!.body, ['\n'])).toEqual([])
    const alerts = push.fired.length || push.repeated.length || push.resolved.length || push.changed.length
    expect(plan!.body.split('\n').length).toBeLessThanOrEqual(alerts)
  })
})
