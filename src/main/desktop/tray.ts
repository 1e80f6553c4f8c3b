// The tray shows the core's one verdict and nothing of its own: the icon is the situation's
// tray state, the tooltip its headline (with the pauses) and, when a connection is not simply
// connected, each connection's polling status in the header's words, the macOS title its firing
// count (acknowledged alerts included, as in the header), and the menu lists the live rows with the
// health and alert the core decided. The situation, the status and the live board are read once at
// start (so a tray started mid-incident is right at once), then followed from the pushes, which
// carry them: alertsChanged the situation, statusChanged the status, sessionsChanged the changed
// rows and the removed keys. The icon and tooltip follow at once; the menu is rebuilt at most once
// per throttle period.
import { Menu, Tray } from 'electron'
import { notificationsPaused, type AlertsChanged, type AlertSituation, type TrayState } from '../../shared/alerts'
import { events } from '../../shared/contract'
import type { AppTarget } from '../../shared/deep-link'
import type { SessionsChanged, Status } from '../../shared/domain'
import { pollPhrases } from '../../shared/poll-words'
import { takesAnswer, takesPush } from '../../shared/revisions'
import { connectionsPolledOf } from '../../shared/session-name'
import type { Timers } from '../../shared/timers'
import type { AppCore } from '../core/app/types'
import { ask } from './core-requests'
import { LiveRows } from './live-rows'
import { loadTrayIcon, trayTooltip } from './tray-icons'
import { trayMenuTemplate } from './tray-menu'

export interface TrayControllerDeps {
  core: Pick<AppCore, 'dispatch' | 'onEvent'>
  /** The folder holding tray/ (resources/ at the project root). */
  resourcesDir: string
  platform: NodeJS.Platform
  open(target?: AppTarget): void
  quit(): void
  /** Acknowledges an alert from the menu (alert-actions.ts); the core's push then rebuilds it. */
  acknowledge(alertId: number): void
  /** Whether the user may acknowledge (a team's viewer may not); defaults to yes. */
  mayAcknowledge?(): boolean
  timers: Timers
  now(): number
  /** How a time of day is shown in the menu ("paused until 14:30"). */
  formatTime?: (ms: number) => string
  menuThrottleMs?: number
}

export interface TrayController {
  /** Settles once the start-up reads are answered (or failed) and shown. */
  readonly ready: Promise<void>
  /** The situation shown, as the core last told it; undefined before its first word. */
  readonly situation: AlertSituation | undefined
  /** The state the icon shows: the situation's tray state ('ok' before the first situation). */
  readonly state: TrayState
  dispose(): void
}

const defaultFormatTime = (ms: number): string =>
  new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

const logFailure = (error: unknown): void => console.error('eventwatch: tray refresh failed', error)

export function createTrayController(deps: TrayControllerDeps): TrayController {
  const formatTime = deps.formatTime ?? defaultFormatTime
  const throttleMs = deps.menuThrottleMs ?? 1000

  let situation: AlertSituation | undefined
  /** The polling status, as the core last told it; undefined before its first word. */
  let status: Status | undefined
  const rows = new LiveRows()
  let shownState: TrayState = 'ok'
  let scheduled: unknown
  /** Rebuilds when a notification pause ends, which no push announces. */
  let pauseEnds: unknown
  let reading: Promise<void> | undefined
  let disposed = false

  const tray = new Tray(loadTrayIcon(deps.resourcesDir, shownState, deps.platform))
  tray.setToolTip(trayTooltip(undefined))
  // Windows and Linux: a click opens the window; macOS opens the menu on click by itself.
  if (deps.platform !== 'darwin') tray.on('click', () => deps.open())

  /** Takes `next` by the faces' one rule (shared/revisions.ts): a push must be newer than what is
   *  held, an answer may repeat the revision of the push its request caused; a new epoch is taken. */
  const take = (next: AlertSituation, answer: boolean): boolean => {
    if (!(answer ? takesAnswer : takesPush)(situation, next)) return false
    situation = next
    return true
  }

  const pausedUntil = (): number | undefined => {
    const until = situation?.notificationsPausedUntil ?? null
    return notificationsPaused(until, deps.now()) ? Date.parse(until!) : undefined
  }

  const applyIcon = (): void => {
    if (disposed) return
    const state = situation?.tray ?? 'ok'
    if (state !== shownState) {
      tray.setImage(loadTrayIcon(deps.resourcesDir, state, deps.platform))
      shownState = state
    }
    const until = pausedUntil()
    tray.setToolTip(trayTooltip(situation, until === undefined ? undefined : formatTime(until), pollingWords()))
    // The count beside the icon in the macOS menu bar: every alert still firing.
    if (deps.platform === 'darwin') tray.setTitle(situation && situation.firing > 0 ? String(situation.firing) : '')
  }

  /** Each connection's polling status, named (the tray has no badge), when one is not simply
   *  connected; all paused is said by the first line already. */
  const pollingWords = (): string | undefined => {
    if (!status || status.summary.state === 'paused') return undefined
    if (status.connections.every((c) => c.state === 'connected' || c.state === 'disabled')) return undefined
    return pollPhrases(status.connections, (iso) => formatTime(Date.parse(iso)), true)
      .map((p) => p.line)
      .join(' · ')
  }

  const actions = {
    open: (target?: AppTarget) => (target ? deps.open(target) : deps.open()),
    quit: () => deps.quit(),
    acknowledge: (alertId: number) => deps.acknowledge(alertId),
    // The core pushes the new situation (polling paused or not) before it answers.
    setPollingPaused: (paused: boolean) => {
      void ask(deps.core, 'setPaused', { paused }).then(() => rebuildMenu())
    },
    pauseNotifications: (minutes: number) => {
      void ask(deps.core, 'pauseNotifications', { minutes }).then((page) => {
        if (page) take(page.situation, true)
        rebuildMenu()
      })
    }
  }

  const rebuildMenu = (): void => {
    if (disposed) return
    applyIcon()
    const until = pausedUntil()
    tray.setContextMenu(
      Menu.buildFromTemplate(
        trayMenuTemplate(
          {
            sessions: rows.sessions,
            blind: situation?.blind ?? [],
            pollingPaused: situation?.pollingPaused ?? false,
            connectionsPolled: connectionsPolledOf(situation),
            mayAcknowledge: deps.mayAcknowledge?.() !== false,
            ...(until === undefined ? {} : { notificationsPausedUntil: formatTime(until) })
          },
          actions
        )
      )
    )
    if (pauseEnds !== undefined) deps.timers.clearTimeout(pauseEnds)
    pauseEnds = until === undefined ? undefined : deps.timers.setTimeout(rebuildMenu, until - deps.now())
  }

  /** Asks for what is not known yet: at start the situation, the status and the live board; later
   *  only one whose answer never came. One read at a time. */
  const readMissing = (): Promise<void> => {
    reading ??= (async () => {
      const needBoard = !rows.loaded
      if (needBoard) rows.reading()
      const [page, board, answered] = await Promise.all([
        situation ? undefined : ask(deps.core, 'listAlerts', { historyHours: 0, limit: 1 }),
        needBoard ? ask(deps.core, 'listLiveSessions', {}) : undefined,
        status ? undefined : ask(deps.core, 'getStatus', {})
      ])
      if (page) take(page.situation, true)
      // A push that came meanwhile is newer than the answer.
      status ??= answered
      if (needBoard) rows.load(board)
    })().finally(() => {
      reading = undefined
    })
    return reading
  }

  const scheduleRebuild = (): void => {
    if (scheduled !== undefined || disposed) return
    scheduled = deps.timers.setTimeout(() => {
      scheduled = undefined
      const known = situation !== undefined && rows.loaded
      ;(known ? Promise.resolve() : readMissing()).then(rebuildMenu).catch(logFailure)
    }, throttleMs)
  }

  const unsubscribe = deps.core.onEvent((name, payload) => {
    if (name === 'alertsChanged') {
      if (!take((payload as AlertsChanged).situation, false)) return
      applyIcon()
      scheduleRebuild()
    } else if (name === 'statusChanged') {
      // Checked like an answer: a team server's push crossed the network.
      const parsed = events.statusChanged.safeParse(payload)
      if (!parsed.success) return
      status = parsed.data
      applyIcon()
    } else if (name === 'sessionsChanged') {
      if (rows.patch(payload as SessionsChanged) || !rows.loaded) scheduleRebuild()
    }
  })

  const ready = readMissing().then(rebuildMenu).catch(logFailure)

  return {
    ready,
    get situation() {
      return situation
    },
    get state() {
      return shownState
    },
    dispose() {
      if (disposed) return
      disposed = true
      unsubscribe()
      if (scheduled !== undefined) deps.timers.clearTimeout(scheduled)
      if (pauseEnds !== undefined) deps.timers.clearTimeout(pauseEnds)
      tray.destroy()
    }
  }
}
