// What a webhook sends for one alert event: plain JSON for scripts and on-call tools, or the
// bodies Microsoft Teams (an Adaptive Card in a message) and Slack (text with Block Kit blocks)
// incoming webhooks accept. Strings come from the service and are hostile: Slack's mrkdwn
// control characters are escaped, and every text is cut to the lengths the platforms allow.
import type { Alert } from '../../../shared/alerts'
import type { WebhookEvent, WebhookFormat } from '../../../shared/webhooks'

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
}

const RULE_WORDS: Record<Alert['rule'], string> = {
  'reliability-below': 'Reliability below level',
  'reliability-falling': 'Reliability falling',
  'viewers-dropping': 'Viewers dropping',
  'monitor-blind': 'Cannot reach the service',
  'site-reliability': 'A site below level'
}
const EVENT_WORDS: Record<WebhookEvent, string> = { fired: 'Fired', resolved: 'Resolved', acknowledged: 'Acknowledged' }

export function jsonBody(e: AlertEvent): unknown {
  const a = e.alert
  return {
    id: e.key,
    source: 'eventwatch',
    event: e.event,
    at: e.at,
    rule: a.rule,
    severity: a.severity,
    state: a.state,
    summary: a.summary,
    value: e.value,
    level: e.level,
    note: e.note,
    by: e.by,
    alert: { id: a.id, firedAt: a.firedAt, resolvedAt: a.resolvedAt, endReason: a.endReason },
    connection: { id: a.connectionId, name: a.connectionName },
    session: a.eventSessionId === null ? null : { id: a.eventSessionId, name: a.eventName },
    site: e.site
  }
}

/** The headline every format leads with: "Fired · critical · Town hall: Reliability 86.2, below …",
 *  "Acknowledged by alice · critical · …". */
export function headline(e: AlertEvent): string {
  const about = e.alert.eventName ?? e.alert.eventSessionId ?? e.alert.connectionName
  return `${EVENT_WORDS[e.event]}${e.by ? ` by ${e.by}` : ''} · ${e.alert.severity} · ${about}: ${e.alert.summary}`
}

function facts(e: AlertEvent): { title: string; value: string }[] {
  const a = e.alert
  return [
    { title: 'Rule', value: RULE_WORDS[a.rule] },
    { title: 'Severity', value: a.severity },
    { title: 'State', value: a.state },
    { title: 'Connection', value: a.connectionName },
    ...(a.eventSessionId === null ? [] : [{ title: 'Session', value: `${a.eventName ?? '(no name)'} (${a.eventSessionId})` }]),
    ...(e.site === null ? [] : [{ title: 'Site', value: e.site }]),
    ...(e.value === null ? [] : [{ title: 'Value', value: String(e.value) }]),
    ...(e.level === null ? [] : [{ title: 'Level', value: String(e.level) }]),
    ...(e.note ? [{ title: 'Note', value: e.note }] : []),
    { title: 'At', value: e.at }
  ]
}

/** Teams (Workflows / incoming webhook): a message carrying one Adaptive Card. */
export function teamsBody(e: AlertEvent): unknown {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: cut(plain(headline(e)), 500),
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              color: e.event === 'resolved' ? 'Good' : e.alert.severity === 'critical' ? 'Attention' : 'Warning'
            },
            { type: 'FactSet', facts: facts(e).map((f) => ({ title: f.title, value: cut(plain(f.value), 500) })) }
          ]
        }
      }
    ]
  }
}

/** Slack incoming webhook: a fallback `text` and Block Kit blocks (a header and fields). */
export function slackBody(e: AlertEvent): unknown {
  const fields = facts(e).slice(0, 10) // Slack takes at most 10 fields in a section
  return {
    text: cut(slackEscape(headline(e)), 3000),
    blocks: [
      // plain_text is shown as typed: no mentions, no links.
      { type: 'header', text: { type: 'plain_text', text: cut(plain(headline(e)), 150), emoji: false } },
      {
        type: 'section',
        fields: fields.map((f) => ({ type: 'mrkdwn', text: cut(`*${f.title}*\n${slackEscape(f.value)}`, 2000) }))
      }
    ]
  }
}

export function bodyFor(format: WebhookFormat, e: AlertEvent): string {
  const body = format === 'teams' ? teamsBody(e) : format === 'slack' ? slackBody(e) : jsonBody(e)
  return JSON.stringify(body)
}

/** Slack's mrkdwn: &, < and > are its control characters (links, mentions). */
function slackEscape(text: string): string {
  return plain(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** No control characters (a hostile name could carry them). */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
