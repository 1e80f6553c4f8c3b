// The alerts requests of the app API. Arguments are validated by the contract before they get
// here; each change is pushed as `alertsChanged` so the tray and every open view follow it.
import type { Handlers } from '../app/dispatch'
import type { Db } from '../store/db'
import { setSessionOverride } from './overrides'
import { alertsChanged, alertsPage } from './page'
import { acknowledgeAlert, pauseNotifications, snoozeAlert } from './store'
import type { AlertsChanged, AlertsPage } from '../../../shared/alerts'

type AlertHandlers = Pick<Handlers, 'listAlerts' | 'acknowledgeAlert' | 'snoozeAlert' | 'setSessionAlertOverride' | 'pauseNotifications'>

export interface AlertHandlerDeps {
  clock?: () => number
  pollingPaused(): boolean
  push(payload: AlertsChanged): void
}

export function alertHandlers(db: Db, deps: AlertHandlerDeps): AlertHandlers {
  const clock = deps.clock ?? Date.now
  /** An operator's change: made, pushed, and answered with the alerts view's first page. */
  const change = (make: (now: number) => void): AlertsPage => {
    const now = clock()
    make(now)
    deps.push(alertsChanged(db, now, { fired: [], resolved: [] }, deps.pollingPaused()))
    return alertsPage(db, {}, now)
  }
  return {
    listAlerts: (query) => alertsPage(db, query, clock()),
    acknowledgeAlert: ({ id, note }) => change((now) => acknowledgeAlert(db, id, note?.trim() || null, now)),
    snoozeAlert: ({ id, until }) => change((now) => snoozeAlert(db, id, until, now)),
    setSessionAlertOverride: ({ connectionId, eventSessionId, muted, thresholds }) =>
      setSessionOverride(db, { connectionId, eventSessionId, muted, thresholds }),
    pauseNotifications: ({ minutes }) => change((now) => pauseNotifications(db, minutes, now))
  }
}
