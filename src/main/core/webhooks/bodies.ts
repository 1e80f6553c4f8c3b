// What a webhook sends for one alert event: plain JSON for scripts and on-call tools, or the
// bodies Microsoft Teams (an Adaptive Card in a message) and Slack (text with Block Kit blocks)
// incoming webhooks accept. Strings come from the service and are hostile: every text meant for
// people is plain (no control, bidi or invisible characters: shared/plain-text.ts), Teams'
// Markdown and Slack's mrkdwn control characters are escaped, and every text is cut to the
// lengths the platforms allow. In the JSON body, ids (the event's key, the alert's, the
// connection's and the session's) are data and stay exact; the names, the summary, the note, who
// acknowledged and the site are text for people and are made plain. Any body is written with its
// remaining control characters as \u escapes, so not even an id carries one raw. Every body about a
// session carries the link back to its drill-down (shared/session-link.ts), made by the core:
// JSON's `link`, Teams' Action.OpenUrl, a link in Slack's blocks; the on-call tools' bodies are in
// on-call-bodies.ts.
import { jsonWithEscapedControls, plainText, shorten } from '../../../shared/plain-text'
import type { WebhookFormat } from '../../../shared/webhooks'
import { eventWord, facts, headline, LINK_TEXT, type AlertEvent } from './alert-event'
import { opsgenieDelivery, pagerdutyBody } from './on-call-bodies'
import { teamsText } from './teams-text'

export { headline, type AlertEvent }

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
    site: plainOrNull(e.site),
    link: e.link ?? null
  }
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
          ],
          // The link is the core's own (an https page or the desk's eventwatch:// link), ids escaped in it.
          ...(e.link ? { actions: [{ type: 'Action.OpenUrl', title: LINK_TEXT, url: e.link }] } : {})
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
      },
      // A link in mrkdwn (a button would refuse the desk's eventwatch:// link); the link's ids are
      // percent-escaped, so it holds no '|' or '>' that would end it.
      ...(e.link ? [{ type: 'section', text: { type: 'mrkdwn', text: `<${e.link.replace(/&/g, '&amp;')}|${LINK_TEXT}>` } }] : [])
    ]
  }
}

/** What one event's delivery sends: its body, and where under the webhook's URL it goes (null: the URL itself). */
export interface Delivery {
  body: string
  path: string | null
}

export function deliveryFor(format: WebhookFormat, e: AlertEvent): Delivery {
  if (format === 'opsgenie') {
    const { body, path } = opsgenieDelivery(e)
    return { body: jsonWithEscapedControls(body), path }
  }
  const body = format === 'teams' ? teamsBody(e) : format === 'slack' ? slackBody(e) : format === 'pagerduty' ? pagerdutyBody(e) : jsonBody(e)
  return { body: jsonWithEscapedControls(body), path: null }
}

export function bodyFor(format: WebhookFormat, e: AlertEvent): string {
  return deliveryFor(format, e).body
}

/** Slack's mrkdwn: &, < and > are its control characters (links, mentions). Cut before escaping,
 *  so no entity is cut in half: at most 5 × `max` characters (Slack allows 3000 in `text`, 2000 in
 *  a field). */
function slackText(text: string, max: number): string {
  return shorten(plainText(text), max).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
