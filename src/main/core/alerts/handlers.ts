// The alerts requests of the app API. Arguments are validated by the contract before they get
// here; each change is pushed (alertsChanged with the situation and the alert as it is now) so
// the tray and every open view follow it without asking again.
import type { AlertSituation } from '../../../shared/alerts'
import type { RequestHandlers } from '../../../shared/contract'
import type { Db } from '../store/db'
import { setSessionOverride } from './overrides'
import { alertsPage } from './page'
import { acknowledgeAlert, pauseNotifications, snoozeAlert } from '../store/alerts'
import { nothingApplied, type Applied } from './apply'

type AlertHandlers = Pick<RequestHandlers, 'listAlerts' | 'acknowledgeAlert' | 'snoozeAlert' | 'setSessionAlertOverride' | 'pauseNotifications'>

export interface AlertHandlerDeps {
  clock?: () => number
  situation(): AlertSituation
  /** Pushes what changed with the new situation, and returns that situation. */
  publishAlerts(change: Applied): AlertSituation
  /** Pushes the live rows again: a session's levels decide its health. */
  publishBoard(): void
  /** Judges the connection's alerts again now (no poll) and pushes what changed, rows included. */
  reevaluate(connectionId: string): void
}

export function alertHandlers(db: Db, deps: AlertHandlerDeps): AlertHandlers {
  const clock = deps.clock ?? Date.now
  /** An operator's change: made, pushed, and answered with the alerts view's first page. */
  const change = (id: number | null, make: (now: number) => void) => {
    const now = clock()
    make(now)
    const situation = deps.publishAlerts({ ...nothingApplied(), changed: id === null ? [] : [id] })
    // The session's row shows its alert's state: it follows at once, not at the next poll.
    if (id !== null) deps.publishBoard()
    return alertsPage(db, {}, situation, now)
  }
  return {
    listAlerts: (query) => alertsPage(db, query, deps.situation(), clock()),
    acknowledgeAlert: ({ id, note }, { actor }) => change(id, (now) => acknowledgeAlert(db, id, note?.trim() || null, now, actor.name)),
    snoozeAlert: ({ id, until }, { actor }) => change(id, (now) => snoozeAlert(db, id, until, now, actor.name)),
    setSessionAlertOverride: ({ connectionId, eventSessionId, muted, thresholds }) => {
      const next = setSessionOverride(db, { connectionId, eventSessionId, muted, thresholds })
      // A mute, an unmute or new levels take effect on the alerts at once, not at the next poll.
      deps.reevaluate(connectionId)
      return next
    },
    pauseNotifications: ({ minutes }) => change(null, (now) => pauseNotifications(db, minutes, now))
  }
}
