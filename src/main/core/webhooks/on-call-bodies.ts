// What the on-call tools take for one alert event (issue 27). PagerDuty's Events API v2: a
// `trigger` when the alert fires, `acknowledge` when an operator acknowledges it, `resolve` when it
// ends, all with the alert's one `dedup_key`. Opsgenie's Alert API: create the alert with its
// `alias`, then acknowledge and close it by that alias, each at its own path under the API's
// address. Both keys come from onCallKey(): stable for the alert, the same for every event of it.
//
// The secret is not here: PagerDuty's routing key is put in front of the body when it is sent
// (on-call-requests.ts), so the outbox never holds it; Opsgenie's goes in a header. Every text for
// people is plain and cut to the tool's limits (hostile names stay text, as in the other formats);
// ids are data.
import { createHash } from 'node:crypto'
import { plainText, shorten } from '../../../shared/plain-text'
import { alertSubjectParts, titleText } from '../../../shared/session-name'
import { facts, headline, LINK_TEXT, type AlertEvent } from './alert-event'

/** What the on-call tools show as the sender. */
const SOURCE = 'Eventwatch'

/**
 * The alert's key in the on-call tool (PagerDuty's dedup_key, at most 255 characters; Opsgenie's
 * alias, at most 512): its id, with a hash of its connection's id so that two caches (two desks,
 * two teams) sending to one service never share a key for their alert 12. Letters, digits and
 * '-' only: it goes into Opsgenie's URL path as it is.
 */
export function onCallKey(alert: AlertEvent['alert']): string {
  const connection = createHash('sha256').update(alert.connectionId).digest('hex').slice(0, 16)
  return `eventwatch-alert-${alert.id}-${connection}`
}

const plain = (text: string | null, max: number): string | null => (text === null ? null : shorten(plainText(text), max))

/** What the alert is about and its figures, for a tool's details (ids exact, names plain). */
function details(e: AlertEvent): Record<string, string | number | null> {
  const a = e.alert
  return {
    rule: a.rule,
    state: a.state,
    connection: plainText(a.connectionName),
    connectionId: a.connectionId,
    session: plain(a.eventName, 500),
    sessionId: a.eventSessionId,
    site: plain(e.site, 500),
    value: e.value,
    level: e.level,
    ...(e.note ? { note: plain(e.note, 2000) } : {}),
    ...(e.by ? { by: plain(e.by, 200) } : {}),
    ...(a.endReason && e.event === 'resolved' ? { endReason: plain(a.endReason, 500) } : {}),
    link: e.link ?? null
  }
}

const PD_ACTIONS = { fired: 'trigger', acknowledged: 'acknowledge', resolved: 'resolve' } as const

/** PagerDuty Events API v2, without its `routing_key` (added when sent). */
export function pagerdutyBody(e: AlertEvent): unknown {
  const a = e.alert
  return {
    event_action: PD_ACTIONS[e.event],
    dedup_key: onCallKey(a),
    payload: {
      summary: shorten(plainText(headline(e)), 1024),
      source: shorten(`${SOURCE} · ${plainText(a.connectionName)}`, 255),
      severity: a.severity === 'critical' ? 'critical' : 'warning',
      timestamp: e.at,
      component: plain(a.eventName ?? a.eventSessionId, 255),
      class: a.rule,
      custom_details: details(e)
    },
    client: SOURCE,
    ...(e.link ? { client_url: e.link, links: [{ href: e.link, text: LINK_TEXT }] } : { links: [] })
  }
}

/** Opsgenie Alert API: the body and its path under the API's address (create, acknowledge or close). */
export function opsgenieDelivery(e: AlertEvent): { body: unknown; path: string } {
  const alias = onCallKey(e.alert)
  const linkLine = e.link ? `\n${LINK_TEXT}: ${e.link}` : ''
  if (e.event === 'fired') return { path: '/v2/alerts', body: opsgenieCreate(e, alias, linkLine) }
  const action = e.event === 'acknowledged' ? 'acknowledge' : 'close'
  const said = e.event === 'acknowledged' ? (e.note ?? '') : (e.alert.endReason ?? '')
  return {
    path: `/v2/alerts/${alias}/${action}?identifierType=alias`,
    body: {
      source: SOURCE,
      ...(e.by ? { user: plain(e.by, 100) } : {}),
      note: shorten(`${plainText(headline(e))}${said ? `\n${plainText(said)}` : ''}`, 20_000) + linkLine
    }
  }
}

function opsgenieCreate(e: AlertEvent, alias: string, linkLine: string): unknown {
  const a = e.alert
  const about = titleText(alertSubjectParts(a, e.connectionsPolled ?? 1))
  // One plain line per fact: a name cannot start a line of its own.
  const described = facts(e).map((f) => plainText(`${f.title}: ${f.value}`)).join('\n')
  // Opsgenie takes details as strings only.
  const stringDetails = Object.fromEntries(Object.entries(details(e)).flatMap(([k, v]) => (v === null ? [] : [[k, String(v)]])))
  return {
    message: shorten(plainText(`${about}: ${a.summary}`), 130),
    alias,
    description: shorten(described, 14_000) + linkLine,
    priority: a.severity === 'critical' ? 'P1' : 'P3',
    source: SOURCE,
    entity: shorten(plainText(about), 512),
    tags: ['eventwatch', a.rule, a.severity],
    details: stringDetails
  }
}
