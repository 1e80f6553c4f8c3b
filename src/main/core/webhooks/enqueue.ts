// Turns what an alert change announces (fired, resolved, acknowledged) into deliveries in the
// outbox, one per webhook and event, inside the change's own transaction (outbox.ts). Each
// event's idempotency key is derived from the alert and its transition, so announcing the same
// change twice queues it once. While notifications are paused (a maintenance pause) nothing is
// queued: the alerts are still evaluated and recorded, only the messages are held back.
import type { Alert, AlertsChanged } from '../../../shared/alerts'
import { connectionsPolledOf } from '../../../shared/session-name'
import type { WebhookEvent } from '../../../shared/webhooks'
import { notificationsPausedUntil } from '../store/alerts'
import type { Db } from '../store/db'
import { LevelBook } from '../store/session-levels'
import { getAlertRules } from '../store/settings'
import { withTransaction } from '../store/unit-of-work'
import { enqueueDelivery, listWebhooks } from '../store/webhooks'
import { bodyFor, type AlertEvent } from './bodies'

/** What of an announcement makes webhook events: its alerts, what a window silenced, and the
 *  count of connections polled (session names). */
type AnnouncedChange = Pick<AlertsChanged, 'fired' | 'resolved' | 'changed'> & {
  silenced?: AlertsChanged['silenced']
  situation?: Pick<AlertsChanged['situation'], 'connectionsPolled'>
}

/** The events an announcement carries, each once. */
export function alertEventsOf(db: Db, change: AnnouncedChange): AlertEvent[] {
  const events: AlertEvent[] = []
  const polled = connectionsPolledOf(change.situation)
  const eventOf = (alert: Alert, event: WebhookEvent, key: string): AlertEvent => alertEvent(db, alert, event, key, polled)
  // Fired and resolved come already without what a maintenance window holds back; an
  // acknowledgement comes from `changed`, so it is checked here.
  const silenced = new Set((change.silenced ?? []).map((s) => s.id))
  for (const alert of change.fired) events.push(eventOf(alert, 'fired', `alert:${alert.id}:fired`))
  for (const alert of change.resolved) events.push(eventOf(alert, 'resolved', `alert:${alert.id}:resolved`))
  for (const alert of change.changed) {
    const last = alert.transitions.at(-1)
    if (alert.state === 'acknowledged' && last?.state === 'acknowledged' && !silenced.has(alert.id)) {
      events.push(eventOf(alert, 'acknowledged', `alert:${alert.id}:acknowledged:${last.at}`))
    }
  }
  return events
}

/** Queues every event for every webhook, all or none; returns how many deliveries were queued. */
export function enqueueAlertEvents(db: Db, change: AnnouncedChange, now: number): number {
  // Most evaluations change no alert: nothing to read.
  if (change.fired.length + change.resolved.length + change.changed.length === 0) return 0
  if (notificationsPausedUntil(db, now) !== null) return 0
  const hooks = listWebhooks(db)
  if (hooks.length === 0) return 0
  const events = alertEventsOf(db, change)
  let queued = 0
  withTransaction(db, () => {
    for (const event of events) {
      for (const hook of hooks) {
        const body = bodyFor(hook.format, event)
        if (enqueueDelivery(db, { webhookId: hook.id, idempotencyKey: event.key, event: event.event, alertId: event.alert.id, body }, now)) queued++
      }
    }
  })
  return queued
}

function alertEvent(db: Db, alert: Alert, event: WebhookEvent, key: string, connectionsPolled: number): AlertEvent {
  const transition = [...alert.transitions].reverse().find((t) => (event === 'fired' ? t.state === 'firing' : t.state === alert.state))
  const value = [...alert.transitions].reverse().find((t) => t.value !== null)?.value ?? null
  return {
    key,
    event,
    at: transition?.at ?? new Date().toISOString(),
    alert,
    value,
    level: levelOf(db, alert),
    note: event === 'acknowledged' ? (transition?.note ?? null) : null,
    by: event === 'acknowledged' ? (transition?.by ?? null) : null,
    site: alert.site === null ? null : alert.siteName ? `${alert.site} · ${alert.siteName}` : alert.site,
    connectionsPolled
  }
}

/** The level the alert's value is judged against: its rule's own setting, or the session's levels. */
function levelOf(db: Db, alert: Alert): number | null {
  const rules = getAlertRules(db)
  switch (alert.rule) {
    case 'reliability-below': {
      const levels = new LevelBook(db).levels(alert.connectionId, alert.eventSessionId)
      return alert.severity === 'critical' ? levels.critical : levels.warning
    }
    case 'reliability-falling':
      return rules.reliabilityFalling.points
    case 'viewers-dropping':
      return rules.viewersDropping.percent
    case 'monitor-blind':
      return rules.monitorBlind.minutes
    case 'site-reliability':
      return alert.severity === 'critical' ? rules.siteReliability.criticalBelow : rules.siteReliability.warningBelow
  }
}
