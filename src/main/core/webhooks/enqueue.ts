// Turns what an alert change announces (fired, resolved, acknowledged) into deliveries in the
// outbox, one per webhook and event, inside the change's own unit of work (outbox.ts). Each
// event's idempotency key is derived from the alert and its transition, so announcing the same
// change twice queues it once. While notifications are paused (a maintenance pause) nothing is
// queued: the alerts are still evaluated and recorded, only the messages are held back. Each event
// carries the link to its session's drill-down on the core's LinkBase (a team server's page, or
// the desk's eventwatch:// link); an alert about no session (monitor-blind, a site's) has none.
import type { Alert, AlertsChanged } from '../../../shared/alerts'
import { alertLink } from '../../../shared/alert-link'
import type { LinkBase } from '../../../shared/session-link'
import { connectionsPolledOf } from '../../../shared/session-name'
import type { WebhookEvent } from '../../../shared/webhooks'
import type { AlertRules } from '../../../shared/alerts'
import type { EffectiveLevels } from '../../../shared/reliability'
import type { Tx } from '../store/interface/store'
import { levelsThrough, type LevelReads } from '../store/session-levels'
import { deliveryFor, type AlertEvent } from './bodies'

const DESK: LinkBase = { kind: 'desk' }

/** What of an announcement makes webhook events: its alerts, what a window silenced, and the
 *  count of connections polled (session names). */
type AnnouncedChange = Pick<AlertsChanged, 'fired' | 'resolved' | 'changed'> & {
  silenced?: AlertsChanged['silenced']
  situation?: Pick<AlertsChanged['situation'], 'connectionsPolled'>
}

/** The events an announcement carries, each once. `read`: the Store's reads, or a unit's; links on `linkBase`. */
export async function alertEventsOf(read: LevelReads, change: AnnouncedChange, linkBase: LinkBase = DESK): Promise<AlertEvent[]> {
  const announced: { alert: Alert; event: WebhookEvent; key: string }[] = []
  // Fired and resolved come already without what a maintenance window holds back; an
  // acknowledgement comes from `changed`, so it is checked here.
  const silenced = new Set((change.silenced ?? []).map((s) => s.id))
  for (const alert of change.fired) announced.push({ alert, event: 'fired', key: `alert:${alert.id}:fired` })
  for (const alert of change.resolved) announced.push({ alert, event: 'resolved', key: `alert:${alert.id}:resolved` })
  for (const alert of change.changed) {
    const last = alert.transitions.at(-1)
    if (alert.state === 'acknowledged' && last?.state === 'acknowledged' && !silenced.has(alert.id)) {
      announced.push({ alert, event: 'acknowledged', key: `alert:${alert.id}:acknowledged:${last.at}` })
    }
  }
  if (announced.length === 0) return []
  const polled = connectionsPolledOf(change.situation)
  const rules = await read.settings.get('alertRules')
  const events: AlertEvent[] = []
  for (const { alert, event, key } of announced) {
    const levels = alert.rule === 'reliability-below' ? await levelsThrough(read, alert.connectionId, alert.eventSessionId) : undefined
    events.push({ ...alertEvent(alert, event, key, polled, levelOf(rules, alert, levels)), link: alertLink(linkBase, alert) })
  }
  return events
}

/** Queues every event for every webhook in the unit of work `tx` (all or none, with it); returns
 *  how many deliveries were queued. Links on `linkBase` (the desk's when absent). */
export async function enqueueAlertEvents(tx: Tx, change: AnnouncedChange, now: number, linkBase: LinkBase = DESK): Promise<number> {
  // Most evaluations change no alert: nothing to read.
  if (change.fired.length + change.resolved.length + change.changed.length === 0) return 0
  if ((await tx.alerts.pausedUntil(now)) !== null) return 0
  const hooks = await tx.webhooks.list()
  if (hooks.length === 0) return 0
  let queued = 0
  for (const event of await alertEventsOf(tx, change, linkBase)) {
    for (const hook of hooks) {
      const { body, path } = deliveryFor(hook.format, event)
      if (await tx.webhooks.enqueue({ webhookId: hook.id, idempotencyKey: event.key, event: event.event, alertId: event.alert.id, body, path }, now)) queued++
    }
  }
  return queued
}

function alertEvent(alert: Alert, event: WebhookEvent, key: string, connectionsPolled: number, level: number | null): AlertEvent {
  const transition = [...alert.transitions].reverse().find((t) => (event === 'fired' ? t.state === 'firing' : t.state === alert.state))
  const value = [...alert.transitions].reverse().find((t) => t.value !== null)?.value ?? null
  return {
    key,
    event,
    at: transition?.at ?? new Date().toISOString(),
    alert,
    value,
    level,
    note: event === 'acknowledged' ? (transition?.note ?? null) : null,
    by: event === 'acknowledged' ? (transition?.by ?? null) : null,
    site: alert.site === null ? null : alert.siteName ? `${alert.site} · ${alert.siteName}` : alert.site,
    connectionsPolled
  }
}

/** The level the alert's value is judged against: its rule's own setting, or the session's levels
 *  (`levels`, read for a reliability-below alert). */
function levelOf(rules: AlertRules, alert: Alert, levels: EffectiveLevels | undefined): number | null {
  switch (alert.rule) {
    case 'reliability-below':
      return levels === undefined ? null : alert.severity === 'critical' ? levels.critical : levels.warning
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
