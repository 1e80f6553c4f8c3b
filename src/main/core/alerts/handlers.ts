// The alerts requests of the app API. Arguments are validated by the contract before they get
// here. An operator's change commits as one unit of work with the webhook deliveries it queues
// and its audit row (alert-changes.ts); then it is pushed (alertsChanged with the situation and
// the alert as it is now) so the tray and every open view follow it without asking again.
import type { AlertSituation } from '../../../shared/alerts'
import type { RequestContext, RequestHandlers } from '../../../shared/contract'
import type { AlertStore } from '../store/interface/alerts'
import type { Store } from '../store/interface/store'
import { setSessionOverride } from './overrides'
import { alertsPage, type Announcement } from './page'
import { nothingApplied, type Applied } from './apply'
import type { AlertChanges } from './alert-changes'

type AlertHandlers = Pick<RequestHandlers, 'listAlerts' | 'acknowledgeAlert' | 'snoozeAlert' | 'setSessionAlertOverride' | 'pauseNotifications'>

export interface AlertHandlerDeps {
  clock?: () => number
  situation(): Promise<AlertSituation>
  /** Where an operator's change commits with its outbox rows and its audit row. */
  changes: AlertChanges
  /** Pushes what changed with the new situation, and returns that situation. */
  publishAlerts(change: Applied, announcement: Announcement): Promise<AlertSituation>
  /** Pushes the live rows again: a session's levels decide its health. */
  publishBoard(): Promise<void>
  /** Judges the connection's alerts again now (no poll) and pushes what changed, rows included. */
  reevaluate(connectionId: string): Promise<void>
}

export function alertHandlers(store: Store, deps: AlertHandlerDeps): AlertHandlers {
  const clock = deps.clock ?? Date.now
  /** An operator's change: committed with its deliveries and audit row, pushed, and answered
   *  with the alerts view's first page. */
  const change = async (id: number | null, context: RequestContext, make: (alerts: AlertStore, now: number) => Promise<void>) => {
    const now = clock()
    const made = async (alerts: AlertStore): Promise<Applied> => {
      await make(alerts, now)
      return { ...nothingApplied(), changed: id === null ? [] : [id] }
    }
    const { applied, announcement } = await deps.changes.commit(now, (tx) => made(tx.alerts), (tx) => context.auditIn?.(tx.team.audit))
    const situation = await deps.publishAlerts(applied, announcement)
    // The session's row shows its alert's state: it follows at once, not at the next poll.
    if (id !== null) await deps.publishBoard()
    return alertsPage(store.read, {}, situation, now)
  }
  return {
    listAlerts: async (query) => alertsPage(store.read, query, await deps.situation(), clock()),
    acknowledgeAlert: ({ id, note }, context) => change(id, context, (alerts, now) => alerts.acknowledge(id, note?.trim() || null, context.actor.name, now)),
    snoozeAlert: ({ id, until }, context) => change(id, context, (alerts, now) => alerts.snooze(id, until, context.actor.name, now)),
    setSessionAlertOverride: async ({ connectionId, eventSessionId, muted, thresholds }, context) => {
      // The override and its audit row commit together; the alerts it mutes or unmutes are the
      // engine's own change, judged next.
      const next = await store.withTransaction(async (tx) => {
        const stored = await setSessionOverride(tx, { connectionId, eventSessionId, muted, thresholds })
        await context.auditIn?.(tx.team.audit)
        return stored
      })
      // A mute, an unmute or new levels take effect on the alerts at once, not at the next poll.
      await deps.reevaluate(connectionId)
      return next
    },
    pauseNotifications: ({ minutes }, context) => change(null, context, (alerts, now) => alerts.pause(minutes, now))
  }
}
