// The tray: its icon follows the alerts at once (one shape per state), its tooltip carries the
// firing count, and its menu is rebuilt from the core's answers — at most once per throttle
// period, however many events a poll brings.
import { Menu, Tray } from 'electron'
import { notificationsPaused, type AlertsChanged, type AlertsPage } from '../../shared/alerts'
import type { Status } from '../../shared/domain'
import type { AppCore } from '../core/app/types'
import { ask } from './core-requests'
import type { AppTarget } from '../../shared/deep-link'
import { loadTrayIcon, trayTooltip } from './tray-icons'
import type { TrayState } from './tray-icons'
import { trayMenuTemplate, traySessions } from './tray-menu'
import type { TraySession } from './tray-menu'

export interface TrayTimers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface TrayControllerDeps {
  core: Pick<AppCore, 'dispatch' | 'onEvent'>
  /** The folder holding tray/ (resources/ at the project root). */
  resourcesDir: string
  platform: NodeJS.Platform
  open(target?: AppTarget): void
  quit(): void
  timers: TrayTimers
  now(): number
  /** How a time of day is shown in the menu ("paused until 14:30"). */
  formatTime?: (ms: number) => string
  menuThrottleMs?: number
}

export interface TrayController {
  /** Asks the core for sessions, alerts and status, and rebuilds the menu now. */
  refresh(): Promise<void>
  /** The state the icon shows (tests). */
  readonly state: TrayState
  /** Whether polling is paused, as last heard from the core. */
  readonly pollingPaused: boolean
  dispose(): void
}

const defaultFormatTime = (ms: number): string =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

/** The tray state from a page of alerts, until the core's first alertsChanged says it outright.
 *  The core's order (alerts/page.ts trayState): blind while any "cannot reach" alert is open,
 *  then the worst alert still firing (acknowledged, snoozed and muted ones no longer shout). */
export function trayStateFromAlerts(page: AlertsPage): TrayState {
  if (page.alerts.some((a) => a.rule === 'monitor-blind' && a.state !== 'resolved')) return 'blind'
  const firing = page.alerts.filter((a) => a.state === 'firing')
  if (firing.some((a) => a.severity === 'critical')) return 'critical'
  if (firing.length > 0) return 'warning'
  return 'ok'
}

export function createTrayController(deps: TrayControllerDeps): TrayController {
  const formatTime = deps.formatTime ?? defaultFormatTime
  const throttleMs = deps.menuThrottleMs ?? 1000

  let alertsState: TrayState | undefined // from alertsChanged: the core's word
  let derivedState: TrayState = 'ok' // from listAlerts, before the first alertsChanged
  let firing = 0
  let pausedUntil: string | null = null
  let pollingPaused = false
  let sessions: TraySession[] = []
  let shownState: TrayState | undefined
  let scheduled: unknown
  let disposed = false

  const currentState = (): TrayState => (pollingPaused ? 'paused' : (alertsState ?? derivedState))
  const pausedUntilText = (): string | undefined =>
    pausedUntil && notificationsPaused(pausedUntil, deps.now()) ? formatTime(Date.parse(pausedUntil)) : undefined

  const tray = new Tray(loadTrayIcon(deps.resourcesDir, 'ok', deps.platform))
  shownState = 'ok'
  // Windows and Linux: a click opens the window; macOS opens the menu on click by itself.
  if (deps.platform !== 'darwin') tray.on('click', () => deps.open())

  const applyIcon = (): void => {
    if (disposed) return
    const state = currentState()
    if (state !== shownState) {
      tray.setImage(loadTrayIcon(deps.resourcesDir, state, deps.platform))
      shownState = state
    }
    const notificationsPausedUntil = pausedUntilText()
    tray.setToolTip(trayTooltip({ state, firing, ...(notificationsPausedUntil ? { notificationsPausedUntil } : {}) }))
    // The count beside the icon in the macOS menu bar.
    if (deps.platform === 'darwin') tray.setTitle(firing > 0 ? String(firing) : '')
  }

  const actions = {
    open: (target?: AppTarget) => (target ? deps.open(target) : deps.open()),
    quit: () => deps.quit(),
    setPollingPaused: (paused: boolean) => {
      void ask(deps.core, 'setPaused', { paused }).then((status) => {
        if (status) pollingPaused = status.paused
        rebuildMenu()
      })
    },
    pauseNotifications: (minutes: number) => {
      void ask(deps.core, 'pauseNotifications', { minutes }).then((page) => {
        if (page) {
          pausedUntil = page.notificationsPausedUntil
          firing = page.firing
        }
        rebuildMenu()
      })
    }
  }

  const rebuildMenu = (): void => {
    if (disposed) return
    applyIcon()
    const notificationsPausedUntil = pausedUntilText()
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate({ sessions, pollingPaused, ...(notificationsPausedUntil ? { notificationsPausedUntil } : {}) }, actions)
      )
    )
  }

  const refresh = async (): Promise<void> => {
    const [status, live, page] = await Promise.all([
      ask(deps.core, 'getStatus', {}),
      ask(deps.core, 'listLiveSessions', {}),
      ask(deps.core, 'listAlerts', { historyHours: 0 })
    ])
    if (status) pollingPaused = status.paused
    if (page) {
      derivedState = trayStateFromAlerts(page)
      firing = page.firing
      pausedUntil = page.notificationsPausedUntil
    }
    // Without the alerts, sessions still show (as OK) rather than vanish.
    if (live) sessions = traySessions(live, page?.alerts ?? [])
    rebuildMenu()
  }

  const scheduleRefresh = (): void => {
    if (scheduled !== undefined || disposed) return
    scheduled = deps.timers.setTimeout(() => {
      scheduled = undefined
      refresh().catch((error: unknown) => console.error('eventwatch: tray refresh failed', error))
    }, throttleMs)
  }

  const unsubscribe = deps.core.onEvent((name, payload) => {
    if (name === 'alertsChanged') {
      const change = payload as AlertsChanged
      alertsState = change.tray
      firing = change.firing
      pausedUntil = change.notificationsPausedUntil
      applyIcon()
    } else if (name === 'statusChanged') {
      pollingPaused = (payload as Status).paused === true
      applyIcon()
    }
    if (name === 'alertsChanged' || name === 'statusChanged' || name === 'sessionsChanged') scheduleRefresh()
  })

  void refresh().catch((error: unknown) => console.error('eventwatch: tray refresh failed', error))

  return {
    refresh,
    get state() {
      return currentState()
    },
    get pollingPaused() {
      return pollingPaused
    },
    dispose() {
      if (disposed) return
      disposed = true
      unsubscribe()
      if (scheduled !== undefined) deps.timers.clearTimeout(scheduled)
      tray.destroy()
    }
  }
}
