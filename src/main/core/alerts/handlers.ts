// The alerts requests of the app API. Arguments are validated by the contract before they get
// here. An operator's change commits as one unit of work with the webhook deliveries it queues
// and its audit row (alert-changes.ts); then it is pushed (alertsChanged with the situation and
// the alert as it is now) so the tray and every open view follow it without asking again.
import type { AlertSituation } from '../../../shared/alerts'
import type { RequestContext, RequestHandlers } from '../../../shared/contract'
import type { Db } from '../store/db'
import { withTransaction } from '../store/unit-of-work'
import { setSessionOverride } from './overrides'
import { alertsPage, type Announcement } from './page'
import { acknowledgeAlert, pauseNotifications, snoozeAlert } from '../store/alerts'
import { nothingApplied, type Applied } from './apply'
import type { AlertChanges } from './alert-changes'

type AlertHandlers = Pick<RequestHandlers, 'listAlerts' | 'acknowledgeAlert' | 'snoozeAlert' | 'setSessionAlertOverride' | 'pauseNotifications'>

export interface AlertHandlerDeps {
  clock?: () => number
  situation(): AlertSituation
  /** Where an operator's change commits with its outbox rows and its audit row. */
  changes: AlertChanges
  /** Pushes what changed with the new situation, and returns that situation. */
  publishAlerts(change: Applied, announcement: Announcement): AlertSituation
  /** Pushes the live rows again: a session's levels decide its health. */
  publishBoard(): Promise<void>
  /** Judges the connection's alerts again now (no poll) and pushes what changed, rows included. */
  reevaluate(connectionId: string): Promise<void>
}

export function alertHandlers(db: Db, deps: AlertHandlerDeps): AlertHandlers {
  const clock = deps.clock ?? Date.now
  /** An operator's change: committed with its deliveries and audit row, pushed, and answered
   *  with the alerts view's first page. */
  const change = async (id: number | null, context: RequestContext, make: (now: number) => void) => {
    const now = clock()
    const made = (): Applied => {
      make(now)
      return { ...nothingApplied(), changed: id === null ? [] : [id] }
    }
    const { applied, announcement } = deps.changes.commit(now, made, context.auditNow)
    const situation = deps.publishAlerts(applied, announcement)
    // The session's row shows its alert's state: it follows at once, not at the next poll.
    if (id !== null) await deps.publishBoard()
    return alertsPage(db, {}, situation, now)
  }
  return {
    listAlerts: (query) => alertsPage(db, query, deps.situation(), clock()),
    acknowledgeAlert: ({ id, note }, context) => change(id, context, (now) => acknowledgeAlert(db, id, note?.trim() || null, now, context.actor.name)),
    snoozeAlert: ({ id, until }, context) => change(id, context, (now) => snoozeAlert(db, id, until, now, context.actor.name)),
    setSessionAlertOverride: async ({ connectionId, eventSessionId, muted, thresholds }, context) => {
      // The override and its audit row commit together; the alerts it mutes or unmutes are the
      // engine's own change, judged next.
      const next = withTransaction(db, () => {
        const stored = setSessionOverride(db, { connectionId, eventSessionId, muted, thresholds })
        context.auditNow?.()
        return stored
      })
      // A mute, an unmute or new levels take effect on the alerts at once, not at the next poll.
      await deps.reevaluate(connectionId)
      return next
    },
    pauseNotifications: ({ minutes }, context) => change(null, context, (now) => pauseNotifications(db, minutes, now))
  }
}
