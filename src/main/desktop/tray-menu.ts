// The tray menu as data: built from what the core decided (each live session's health and most
// pressing alert, the connections it cannot reach, the pauses), with the actions injected, so
// tests read labels and click items without a real Menu. Nothing is judged here: the words say
// the core's verdicts, and the sessions come in Live's trouble-first order.
import type { MenuItemConstructorOptions } from 'electron'
import type { AlertSituation, SessionAlert } from '../../shared/alerts'
import type { AppTarget } from '../../shared/deep-link'
import type { LiveSession } from '../../shared/domain'
import { sortLiveSessions } from '../../shared/live-order'
import type { Health } from '../../shared/reliability'
import { plainText } from '../../shared/plain-text'
import { sessionTitle } from '../../shared/session-name'

export interface TrayMenuModel {
  /** The live sessions as the core handed them out, in any order. */
  sessions: readonly LiveSession[]
  /** The connections the core cannot reach (situation.blind). */
  blind: AlertSituation['blind']
  pollingPaused: boolean
  /** How many connections are polled (situation.connectionsPolled): with several, each session
   *  names its connection (absent: one). */
  connectionsPolled?: number
  /** When notifications resume, already formatted for people; undefined when not paused. */
  notificationsPausedUntil?: string
  /** Whether the user may acknowledge alerts (a team's viewer may not): no Acknowledge menu if not. */
  mayAcknowledge?: boolean
}

export interface TrayMenuActions {
  open(target?: AppTarget): void
  /** Acknowledges that alert, as the window does (alert-actions.ts). */
  acknowledge(alertId: number): void
  setPollingPaused(paused: boolean): void
  pauseNotifications(minutes: number): void
  quit(): void
}

const HEALTH_WORDS: Record<Health, string> = {
  good: 'good',
  warning: 'warning',
  critical: 'critical',
  unknown: 'no reliability score'
}
const BLIND_WORDS = 'cannot reach the service'

const ALERT_WORDS: Record<SessionAlert['state'], string> = {
  firing: 'alert firing',
  acknowledged: 'alert acknowledged',
  pending: 'alert pending',
  snoozed: 'alert snoozed',
  muted: 'alert muted',
  cooldown: 'alert in cooldown'
}

/** Whether the core cannot reach this session's connection. */
const isBlind = (session: LiveSession, blind: AlertSituation['blind']): boolean =>
  blind.some((b) => b.connectionId === session.connectionId)

/**
 * "critical, alert acknowledged", "good, warning alert firing", "good", "cannot reach the service":
 * the session's health in words (or that its connection cannot be reached), then its alert's
 * state, with the alert's severity when the health does not already say it.
 */
export function sessionVerdict(session: LiveSession, blind: AlertSituation['blind']): string {
  const health = isBlind(session, blind) ? null : session.health
  const words = health === null ? BLIND_WORDS : HEALTH_WORDS[health]
  const alert = session.alert
  if (!alert) return words
  const severity = alert.severity === health ? '' : `${alert.severity} `
  return `${words}, ${severity}${ALERT_WORDS[alert.state]}`
}

/** A service's name as a menu item shows it: plain (shared/plain-text.ts), and its "&" doubled,
 *  since Electron reads a single "&" as the item's access key and does not show it. */
const menuText = (name: string): string => plainText(name).replace(/&/g, '&&')

/** Enough to scan at a glance; the window has the rest. */
export const MAX_MENU_SESSIONS = 12

export function trayMenuTemplate(model: TrayMenuModel, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  // Worst first, as Live and the wall list them (shared/live-order.ts): one order on every face.
  const ordered = sortLiveSessions(model.sessions, 'trouble', false)
  const sessions: MenuItemConstructorOptions[] =
    ordered.length === 0
      ? [{ label: 'No live sessions', enabled: false }]
      : ordered.slice(0, MAX_MENU_SESSIONS).map((s) => ({
          label: `${menuText(sessionTitle(s, model.connectionsPolled ?? 1))} — ${sessionVerdict(s, model.blind)}`,
          click: () => actions.open({ view: 'session', connectionId: s.connectionId, eventSessionId: s.eventSessionId })
        }))
  if (ordered.length > MAX_MENU_SESSIONS) {
    sessions.push({
      label: `${ordered.length - MAX_MENU_SESSIONS} more live sessions…`,
      click: () => actions.open()
    })
  }

  // One item per alert firing and not yet acknowledged, not one for all: acknowledging says "I am
  // on this one" (to the team, and to on-call, whose escalation it stops), so each is a choice.
  const firing = ordered.flatMap((s) => (s.alert?.state === 'firing' && s.alert.id !== null ? [{ session: s, id: s.alert.id, summary: s.alert.summary }] : []))
  const acknowledge: MenuItemConstructorOptions[] =
    firing.length === 0 || model.mayAcknowledge === false
      ? []
      : [
          {
            label: 'Acknowledge',
            submenu: firing.slice(0, MAX_MENU_SESSIONS).map(({ session, id, summary }) => ({
              label: `${menuText(sessionTitle(session, model.connectionsPolled ?? 1))} — ${menuText(summary)}`,
              click: () => actions.acknowledge(id)
            }))
          }
        ]

  const notifications: MenuItemConstructorOptions[] = model.notificationsPausedUntil
    ? [
        { label: `Notifications paused until ${model.notificationsPausedUntil}`, enabled: false },
        { label: 'Resume notifications', click: () => actions.pauseNotifications(0) }
      ]
    : [
        { label: 'Pause notifications for 15 minutes', click: () => actions.pauseNotifications(15) },
        { label: 'Pause notifications for 1 hour', click: () => actions.pauseNotifications(60) }
      ]

  return [
    { label: 'Open Eventwatch', click: () => actions.open() },
    { type: 'separator' },
    { label: 'Live sessions', enabled: false },
    ...sessions,
    ...acknowledge,
    { type: 'separator' },
    model.pollingPaused
      ? { label: 'Resume polling', click: () => actions.setPollingPaused(false) }
      : { label: 'Pause polling', click: () => actions.setPollingPaused(true) },
    ...notifications,
    { type: 'separator' },
    { label: 'Quit Eventwatch', click: () => actions.quit() }
  ]
}
