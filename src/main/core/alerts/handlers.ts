// The alerts requests of the app API. Arguments are validated by the contract before they get
// here; each change is pushed as `alertsChanged` so the tray and every open view follow it.
import type { Handlers } from '../app/dispatch'
import type { Db } from '../store/db'
import { setSessionOverride } from './overrides'
import { alertsChanged, alertsPage } from './page'
import { acknowledgeAlert, pauseNotifications, snoozeAlert } from './store'
import type { AlertsChanged } from '../../../shared/alerts'

type AlertHandlers = Pick<Handlers, 'listAlerts' | 'acknowledgeAlert' | 'snoozeAlert' | 'setSessionAlertOverride' | 'pauseNotifications'>

export interface AlertHandlerDeps {
  clock?: () => number
  pollingPaused(): boolean
  push(payload: AlertsChanged): void
}

export function alertHandlers(db: Db, deps: AlertHandlerDeps): AlertHandlers {
  const clock = deps.clock ?? Date.now
  const pushed = (now: number): void => deps.push(alertsChanged(db, now, { fired: [], resolved: [] }, deps.pollingPaused()))
  return {
    listAlerts: (query) => alertsPage(db, query, clock()),
    acknowledgeAlert: ({ id, note }) => {
      const now = clock()
      acknowledgeAlert(db, id, note?.trim() || null, now)
      pushed(now)
      return alertsPage(db, {}, now)
    },
    snoozeAlert: ({ id, until }) => {
      const now = clock()
      snoozeAlert(db, id, until, now)
      pushed(now)
      return alertsPage(db, {}, now)
    },
    setSessionAlertOverride: ({ connectionId, eventSessionId, muted, thresholds }) =>
      setSessionOverride(db, { connectionId, eventSessionId, muted, thresholds }),
    pauseNotifications: ({ minutes }) => {
      const now = clock()
      pauseNotifications(db, minutes, now)
      pushed(now)
      return alertsPage(db, {}, now)
    }
  }
}
