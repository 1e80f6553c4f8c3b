// Names that tell things apart (issue 24, items 2 and 6): a session named away from its
// connection's context names the connection when several are polled, and an unnamed session
// reads the same on every face (shared/session-name.ts); a site is named by its name when it has
// one (shared/site-label.ts). Each face's own text is checked here: the desktop's notifications
// and tray menu, the browser's notifications, the webhook bodies, the live order.
import { describe, expect, it } from 'vitest'
import { acknowledgedText, alertHeadline, firedText, repeatedText, resolvedText } from '../../src/main/desktop/alert-text'
import { trayMenuTemplate } from '../../src/main/desktop/tray-menu'
import { bodyFor, headline, type AlertEvent } from '../../src/main/core/webhooks/bodies'
import { planNotification, type NotifyContext } from '../../src/renderer/src/lib/notify'
import type { Alert, SiteAlert } from '../../src/shared/alerts'
import { sortLiveSessions } from '../../src/shared/live-order'
import { alertSubjectParts, connectionsPolledOf, sessionName, sessionTitle, sessionTitleParts, untitledName } from '../../src/shared/session-name'
import { namedSiteSummary, siteLabel } from '../../src/shared/site-label'
import { alert, change, liveSession, situation } from './desktop/alert-fixtures'
import { unsafeCharacters } from '../support/hostile-names'

const NAME = 'All-hands Q1'
/** The two tenants' sessions of one name (and, as the simulator makes them, of one id). */
const ID = '3f2a9c1b-77aa-4e0c-9d1e-5b6c7d8e9f00'
const FABRIKAM = { connectionId: 'c-f', connectionName: 'Fabrikam', eventName: NAME, eventSessionId: ID }
const NORTHWIND = { connectionId: 'c-n', connectionName: 'Northwind', eventName: NAME, eventSessionId: ID }
const fabrikam = alert({ id: 1, ...FABRIKAM })
const northwind = alert({ id: 2, ...NORTHWIND })
const unnamed = alert({ id: 3, eventName: null, eventSessionId: ID })
const ACTIONS = { open: () => undefined, setPollingPaused: () => undefined, pauseNotifications: () => undefined, quit: () => undefined, acknowledge: () => undefined }

describe('a session named for a context', () => {
  it('inside its connection: the event name alone, else "Untitled event" and its short id', () => {
    expect(sessionName({ eventName: NAME, eventSessionId: 's1' })).toBe(NAME)
    expect(sessionName({ eventName: null, eventSessionId: '3f2a9c1b-77aa' })).toBe('Untitled event 3f2a9c1b')
    expect(sessionName({ eventName: '   ', eventSessionId: 's-12' })).toBe('Untitled event s-12')
    expect(untitledName('')).toBe('Untitled event')
    // An id is anyone's text: cut by characters, never half a surrogate pair.
    expect(untitledName('😀😀😀😀😀😀😀😀😀')).toBe(`Untitled event ${'😀'.repeat(8)}`)
  })

  it('away from it: "Name (Connection)" when several connections are polled, the name alone with one', () => {
    expect(sessionTitleParts(FABRIKAM, 3)).toEqual({ name: NAME, connection: 'Fabrikam' })
    expect(sessionTitle(liveSession({ eventName: NAME, connectionName: 'Northwind' }), 2)).toBe(`${NAME} (Northwind)`)
    expect(sessionTitle(liveSession({ eventName: NAME, connectionName: 'Northwind' }), 1)).toBe(NAME)
    expect(sessionTitle(liveSession({ eventName: null, eventSessionId: 'abcdef0123', connectionName: 'Northwind' }), 2)).toBe(
      'Untitled event abcdef01 (Northwind)'
    )
  })

  it("names a connection-wide alert by its connection, once", () => {
    expect(alertSubjectParts({ eventName: null, eventSessionId: null, connectionName: 'Contoso' }, 3)).toEqual({ name: 'Contoso', connection: null })
  })

  it('as a line, each name plain: no control or bidi character from either', () => {
    const title = sessionTitle(liveSession({ eventName: 'Town\u202e hall\u001b[31m', connectionName: 'Fab\u2066rikam\n' }), 2)
    expect(unsafeCharacters(title)).toEqual([])
    expect(title).toBe('Town hall [31m (Fabrikam )')
  })

  it("reads the count of connections polled from the situation, one when it does not say", () => {
    expect(connectionsPolledOf(situation({ connectionsPolled: 3 }))).toBe(3)
    expect(connectionsPolledOf(situation())).toBe(1)
    expect(connectionsPolledOf(undefined)).toBe(1)
    expect(connectionsPolledOf({})).toBe(1)
  })
})

describe('a site named for people', () => {
  it('by its name when it has one, else by its code', () => {
    expect(siteLabel('415', 'Leeds office')).toBe('Leeds office')
    expect(siteLabel('415', ' Leeds office ')).toBe('Leeds office')
    expect(siteLabel('415', null)).toBe('Site 415')
    expect(siteLabel('415', '  ')).toBe('Site 415')
  })

  it("a site alert's stored summary reads by the site's name as it is now; other summaries stay", () => {
    const stored = 'Site 415: reliability 31.1 for 60 viewers, below the site critical level 60; the session 97.5'
    expect(namedSiteSummary(stored, '415', 'Leeds office')).toBe('Leeds office: reliability 31.1 for 60 viewers, below the site critical level 60; the session 97.5')
    expect(namedSiteSummary(stored, '415', null)).toBe(stored)
    // Another site's code, or a summary of another rule, is left as it is.
    expect(namedSiteSummary(stored, '41', 'Leeds office')).toBe(stored)
    expect(namedSiteSummary('Reliability 41, below the critical level 90', null, 'Leeds office')).toBe('Reliability 41, below the critical level 90')
  })
})

describe('every face tells the same-named sessions of two connections apart', () => {
  it('desktop notifications: headline, grouped lines, repeats, resolutions, acknowledgements', () => {
    expect(alertHeadline(fabrikam, 3)).toBe(`Reliability critical: ${NAME} (Fabrikam)`)
    expect(firedText([fabrikam], 3).title).toBe(`Reliability critical: ${NAME} (Fabrikam)`)
    const both = firedText([fabrikam, northwind], 3)
    expect(both.title).toBe(`2 alerts: ${NAME} (Fabrikam), ${NAME} (Northwind)`)
    expect(both.body.split('\n')).toEqual([`Reliability critical: ${NAME} (Fabrikam)`, `Reliability critical: ${NAME} (Northwind)`])
    expect(repeatedText([northwind], 3).title).toBe(`Still firing: Reliability critical: ${NAME} (Northwind)`)
    expect(resolvedText([northwind], 3).title).toBe(`Resolved: Reliability critical: ${NAME} (Northwind)`)
    expect(acknowledgedText([fabrikam, northwind], 3).body).toContain(`${NAME} (Northwind)`)
    // One connection: the desk stays uncluttered.
    expect(firedText([fabrikam]).title).toBe(`Reliability critical: ${NAME}`)
    expect(firedText([unnamed], 3).title).toBe('Reliability critical: Untitled event 3f2a9c1b (Contoso)')
  })

  it("browser notifications, by the situation's count of connections polled", () => {
    const ctx: NotifyContext = { now: Date.parse('2025-03-10T09:00:00Z'), desktop: false, permission: 'granted', pageHidden: false }
    const several = situation({ connectionsPolled: 3 })
    expect(planNotification(change({ situation: several, fired: [fabrikam] }), ctx)?.title).toBe(`✖ Critical: ${NAME} (Fabrikam)`)
    expect(planNotification(change({ situation: several, fired: [fabrikam, northwind] }), ctx)?.body.split('\n')).toEqual([
      `✖ ${NAME} (Fabrikam): reliability below level`,
      `✖ ${NAME} (Northwind): reliability below level`
    ])
    expect(planNotification(change({ situation: situation(), fired: [fabrikam] }), ctx)?.title).toBe(`✖ Critical: ${NAME}`)
    expect(planNotification(change({ situation: several, fired: [unnamed] }), ctx)?.title).toBe('✖ Critical: Untitled event 3f2a9c1b (Contoso)')
  })

  it('webhooks: the headline of every format', () => {
    const event = (a: Alert, connectionsPolled?: number): AlertEvent => ({
      key: `alert:${a.id}:fired`,
      event: 'fired',
      at: '2025-03-10T09:00:00.000Z',
      alert: a,
      value: 41,
      level: 90,
      note: null,
      by: null,
      site: null,
      ...(connectionsPolled === undefined ? {} : { connectionsPolled })
    })
    expect(headline(event(fabrikam, 3))).toBe(`Fired · critical · ${NAME} (Fabrikam): Reliability 86.2, below the critical level 90`)
    expect(headline(event(fabrikam, 1))).toBe(`Fired · critical · ${NAME}: Reliability 86.2, below the critical level 90`)
    for (const format of ['teams', 'slack'] as const) {
      expect(bodyFor(format, event(northwind, 3)), format).toContain(`${NAME} (Northwind)`)
      expect(bodyFor(format, event(unnamed, 3)), format).toContain('Untitled event 3f2a9c1b (Contoso)')
    }
    // JSON is data: its session and connection are fields of their own, an unnamed session's name null.
    expect(JSON.parse(bodyFor('json', event(unnamed, 3)))).toMatchObject({ session: { name: null }, connection: { name: 'Contoso' } })
  })

  it('the tray menu', () => {
    const sessions = [liveSession(FABRIKAM), liveSession(NORTHWIND)]
    const labels = (connectionsPolled?: number): string[] =>
      trayMenuTemplate({ sessions, blind: [], pollingPaused: false, ...(connectionsPolled === undefined ? {} : { connectionsPolled }) }, ACTIONS)
        .map((item) => item.label ?? '')
        .filter((label) => label.startsWith(NAME))
    expect(labels(3)).toEqual([`${NAME} (Fabrikam) — good`, `${NAME} (Northwind) — good`])
    expect(labels()).toEqual([`${NAME} — good`, `${NAME} — good`])
  })
})

describe('a failing office in the live order', () => {
  const office: SiteAlert = { site: '415', label: 'Leeds office', reliability: 31.1, severity: 'critical', state: 'firing' }
  it("ranks a good session whose office's critical alert fires with the criticals, the biggest audience first", () => {
    const sessions = [
      liveSession({ eventSessionId: 'good', eventName: 'Good', viewersCount: 500 }),
      liveSession({ eventSessionId: 'warning', eventName: 'Warning', health: 'warning', viewersCount: 400 }),
      liveSession({ eventSessionId: 'office', eventName: 'Office', viewersCount: 300, siteAlert: office }),
      liveSession({ eventSessionId: 'critical', eventName: 'Critical', health: 'critical', viewersCount: 200 })
    ]
    expect(sortLiveSessions(sessions, 'trouble', false).map((s) => s.eventSessionId)).toEqual(['office', 'critical', 'warning', 'good'])
    const warned = sessions.map((s) => (s.siteAlert ? { ...s, siteAlert: { ...office, severity: 'warning' as const } } : s))
    expect(sortLiveSessions(warned, 'trouble', false).map((s) => s.eventSessionId)).toEqual(['critical', 'warning', 'office', 'good'])
  })
})
