// One alert event as every webhook format tells it: what happened to which alert, when, by whom,
// with the link back to its session; and the words every format shares (the headline, the facts).
// The bodies themselves are in bodies.ts (JSON, Teams, Slack) and on-call-bodies.ts.
import { endHeading } from '../../../shared/alert-end'
import type { Alert } from '../../../shared/alerts'
import { alertSubjectParts, sessionName, titleText } from '../../../shared/session-name'
import type { WebhookEvent } from '../../../shared/webhooks'

export interface AlertEvent {
  /** The idempotency key: the same on every retry of this event, different for every event. */
  key: string
  event: WebhookEvent
  /** When it happened (the alert's transition), ISO 8601. */
  at: string
  alert: Alert
  /** The value that moved it (a score, a drop, minutes blind) and the level it crossed, when known. */
  value: number | null
  level: number | null
  /** The operator's note with an acknowledgement. */
  note: string | null
  /** Who acknowledged it (a team server's user, or the machine's own); null for the rules' own events. */
  by: string | null
  /** The site the alert is about, once site alerts name one. */
  site: string | null
  /** How many connections are polled: with several, the headline names the session's connection
   *  (shared/session-name.ts). Absent: one. */
  connectionsPolled?: number
  /** The link to the session's drill-down (shared/session-link.ts, on the core's LinkBase); null or
   *  absent for an alert about no session (monitor-blind, a site's). */
  link?: string | null
}

/** What a link back says, in every format. */
export const LINK_TEXT = 'Open the session in Eventwatch'

const RULE_WORDS: Record<Alert['rule'], string> = {
  'reliability-below': 'Reliability below level',
  'reliability-falling': 'Reliability falling',
  'viewers-dropping': 'Viewers dropping',
  'monitor-blind': 'Cannot reach the service',
  'site-reliability': 'A site below level'
}
const EVENT_WORDS: Record<WebhookEvent, string> = { fired: 'Fired', resolved: 'Resolved', acknowledged: 'Acknowledged' }

/** A resolved event's word: "Resolved" when it recovered, "Ended" when it ended any other way. */
export const eventWord = (e: AlertEvent): string => (e.event === 'resolved' ? endHeading(e.alert.endKind).word : EVENT_WORDS[e.event])

/** The headline every format leads with: "Fired · critical · Town hall: Reliability 86.2, below …",
 *  "Acknowledged by alice · critical · Town hall (Contoso): …" (several connections), "Ended ·
 *  warning · …" (a drop that left its window). */
export function headline(e: AlertEvent): string {
  const about = titleText(alertSubjectParts(e.alert, e.connectionsPolled ?? 1))
  return `${eventWord(e)}${e.by ? ` by ${e.by}` : ''} · ${e.alert.severity} · ${about}: ${e.alert.summary}`
}

/** What the alert is about, title and value, as Teams, Slack and Opsgenie's description list it (raw: each format makes it plain). */
export function facts(e: AlertEvent): { title: string; value: string }[] {
  const a = e.alert
  return [
    { title: 'Rule', value: RULE_WORDS[a.rule] },
    { title: 'Severity', value: a.severity },
    { title: 'State', value: a.state },
    { title: 'Connection', value: a.connectionName },
    ...(a.eventSessionId === null ? [] : [{ title: 'Session', value: `${sessionName({ ...a, eventSessionId: a.eventSessionId })} (${a.eventSessionId})` }]),
    ...(e.site === null ? [] : [{ title: 'Site', value: e.site }]),
    ...(e.value === null ? [] : [{ title: 'Value', value: String(e.value) }]),
    ...(e.level === null ? [] : [{ title: 'Level', value: String(e.level) }]),
    ...(e.note ? [{ title: 'Note', value: e.note }] : []),
    ...(e.event === 'resolved' && a.endReason ? [{ title: eventWord(e), value: a.endReason }] : []),
    { title: 'At', value: e.at }
  ]
}

