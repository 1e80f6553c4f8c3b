// What a webhook sends for one alert event: plain JSON for scripts and on-call tools, or the
// bodies Microsoft Teams (an Adaptive Card in a message) and Slack (text with Block Kit blocks)
// incoming webhooks accept. Strings come from the service and are hostile: every text meant for
// people is plain (no control, bidi or invisible characters: shared/plain-text.ts), Teams'
// Markdown and Slack's mrkdwn control characters are escaped, and every text is cut to the
// lengths the platforms allow. In the JSON body, ids (the event's key, the alert's, the
// connection's and the session's) are data and stay exact; the names, the summary, the note, who
// acknowledged and the site are text for people and are made plain. Any body is written with its
// remaining control characters as \u escapes, so not even an id carries one raw.
import { endHeading } from '../../../shared/alert-end'
import type { Alert } from '../../../shared/alerts'
import { jsonWithEscapedControls, plainText, shorten } from '../../../shared/plain-text'
import { alertSubjectParts, sessionName, titleText } from '../../../shared/session-name'
import type { WebhookEvent, WebhookFormat } from '../../../shared/webhooks'
import { teamsText } from './teams-text'

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
}

const RULE_WORDS: Record<Alert['rule'], string> = {
  'reliability-below': 'Reliability below level',
  'reliability-falling': 'Reliability falling',
  'viewers-dropping': 'Viewers dropping',
  'monitor-blind': 'Cannot reach the service',
  'site-reliability': 'A site below level'
}
const EVENT_WORDS: Record<WebhookEvent, string> = { fired: 'Fired', resolved: 'Resolved', acknowledged: 'Acknowledged' }

const plainOrNull = (text: string | null): string | null => (text === null ? null : plainText(text))

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
    summary: plainText(a.summary),
    value: e.value,
    level: e.level,
    note: plainOrNull(e.note),
    by: plainOrNull(e.by),
    alert: { id: a.id, firedAt: a.firedAt, resolvedAt: a.resolvedAt, endReason: plainOrNull(a.endReason), endKind: a.endKind },
    connection: { id: a.connectionId, name: plainText(a.connectionName) },
    session: a.eventSessionId === null ? null : { id: a.eventSessionId, name: plainOrNull(a.eventName) },
    site: plainOrNull(e.site)
  }
}

/** A resolved event's word: "Resolved" when it recovered, "Ended" when it ended any other way. */
const eventWord = (e: AlertEvent): string => (e.event === 'resolved' ? endHeading(e.alert.endKind).word : EVENT_WORDS[e.event])

/** The headline every format leads with: "Fired · critical · Town hall: Reliability 86.2, below …",
 *  "Acknowledged by alice · critical · Town hall (Contoso): …" (several connections), "Ended ·
 *  warning · …" (a drop that left its window). */
export function headline(e: AlertEvent): string {
  const about = titleText(alertSubjectParts(e.alert, e.connectionsPolled ?? 1))
  return `${eventWord(e)}${e.by ? ` by ${e.by}` : ''} · ${e.alert.severity} · ${about}: ${e.alert.summary}`
}

function facts(e: AlertEvent): { title: string; value: string }[] {
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
              text: teamsText(headline(e), 500),
              weight: 'Bolder',
              size: 'Medium',
              wrap: true,
              color: eventWord(e) === 'Resolved' ? 'Good' : e.alert.severity === 'critical' ? 'Attention' : 'Warning'
            },
            { type: 'FactSet', facts: facts(e).map((f) => ({ title: f.title, value: teamsText(f.value, 500) })) }
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
    text: slackText(headline(e), 500),
    blocks: [
      // plain_text is shown as typed: no mentions, no links.
      { type: 'header', text: { type: 'plain_text', text: shorten(plainText(headline(e)), 150), emoji: false } },
      {
        type: 'section',
        fields: fields.map((f) => ({ type: 'mrkdwn', text: `*${f.title}*\n${slackText(f.value, 300)}` }))
      }
    ]
  }
}

export function bodyFor(format: WebhookFormat, e: AlertEvent): string {
  const body = format === 'teams' ? teamsBody(e) : format === 'slack' ? slackBody(e) : jsonBody(e)
  return jsonWithEscapedControls(body)
}

/** Slack's mrkdwn: &, < and > are its control characters (links, mentions). Cut before escaping,
 *  so no entity is cut in half: at most 5 × `max` characters (Slack allows 3000 in `text`, 2000 in
 *  a field). */
function slackText(text: string, max: number): string {
  return shorten(plainText(text), max).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
