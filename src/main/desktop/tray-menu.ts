// The tray menu as data: built from what the core says (live sessions, active alerts, status),
// with the actions injected, so tests read labels and click items without a real Menu.
import type { MenuItemConstructorOptions } from 'electron'
import type { Alert } from '../../shared/alerts'
import type { LiveSession } from '../../shared/domain'
import type { AppTarget } from '../../shared/deep-link'

export type SessionState = 'ok' | 'warning' | 'critical' | 'blind'

export interface TraySession {
  connectionId: string
  eventSessionId: string
  name: string
  state: SessionState
}

export interface TrayMenuModel {
  sessions: TraySession[]
  pollingPaused: boolean
  /** When notifications resume, already formatted for people; undefined when not paused. */
  notificationsPausedUntil?: string
}

export interface TrayMenuActions {
  open(target?: AppTarget): void
  setPollingPaused(paused: boolean): void
  pauseNotifications(minutes: number): void
  quit(): void
}

const RANK: Record<SessionState, number> = { critical: 0, blind: 1, warning: 2, ok: 3 }
const WORDS: Record<SessionState, string> = {
  ok: 'OK',
  warning: 'warning',
  critical: 'critical',
  blind: 'cannot reach the service'
}

/** Alerts the operator has not put aside: they set a session's state. */
const isActive = (alert: Alert): boolean => alert.state === 'firing' || alert.state === 'acknowledged'

/** Each live session with the worst state its active alerts give it, worst first. */
export function traySessions(live: readonly LiveSession[], alerts: readonly Alert[]): TraySession[] {
  const active = alerts.filter(isActive)
  const blindConnections = new Set(active.filter((a) => a.rule === 'monitor-blind').map((a) => a.connectionId))
  return live
    .filter((s) => !s.hasEnded)
    .map((session): TraySession => {
      let state: SessionState = blindConnections.has(session.connectionId) ? 'blind' : 'ok'
      for (const alert of active) {
        if (alert.connectionId !== session.connectionId || alert.eventSessionId !== session.eventSessionId) continue
        if (RANK[alert.severity] < RANK[state]) state = alert.severity
      }
      return {
        connectionId: session.connectionId,
        eventSessionId: session.eventSessionId,
        name: session.eventName || session.eventSessionId,
        state
      }
    })
    .sort((a, b) => RANK[a.state] - RANK[b.state] || a.name.localeCompare(b.name))
}

/** Enough to scan at a glance; the window has the rest. */
export const MAX_MENU_SESSIONS = 12

export function trayMenuTemplate(model: TrayMenuModel, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  const sessions: MenuItemConstructorOptions[] =
    model.sessions.length === 0
      ? [{ label: 'No live sessions', enabled: false }]
      : model.sessions.slice(0, MAX_MENU_SESSIONS).map((s) => ({
          label: `${s.name} — ${WORDS[s.state]}`,
          click: () => actions.open({ view: 'session', connectionId: s.connectionId, eventSessionId: s.eventSessionId })
        }))
  if (model.sessions.length > MAX_MENU_SESSIONS) {
    sessions.push({
      label: `${model.sessions.length - MAX_MENU_SESSIONS} more live sessions…`,
      click: () => actions.open()
    })
  }

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
    { type: 'separator' },
    model.pollingPaused
      ? { label: 'Resume polling', click: () => actions.setPollingPaused(false) }
      : { label: 'Pause polling', click: () => actions.setPollingPaused(true) },
    ...notifications,
    { type: 'separator' },
    { label: 'Quit Eventwatch', click: () => actions.quit() }
  ]
}
