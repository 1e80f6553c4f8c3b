// The on-call tools' bodies (on-call-bodies.ts) and their requests (on-call-requests.ts), pure:
// the limits PagerDuty and Opsgenie document hold for any name the service sends; the key is
// stable per alert and never the same for two caches' alert 12; a session id no URL can hold
// leaves the alert without a link rather than failing to queue it; a refusal is said in the
// tool's words, plain and without the key.
import { describe, expect, it } from 'vitest'
import type { AlertEvent } from '../../src/main/core/webhooks/alert-event'
import { onCallKey, opsgenieDelivery, pagerdutyBody } from '../../src/main/core/webhooks/on-call-bodies'
import { onCallRequest, refusalWords } from '../../src/main/core/webhooks/on-call-requests'
import { alertLink } from '../../src/shared/alert-link'
import { unsafeCharacters } from '../support/hostile-names'

const LONG = '\u202e<b>[x](http://evil)</b>\n'.repeat(500)

function event(over: Partial<AlertEvent['alert']> = {}, kind: AlertEvent['event'] = 'fired'): AlertEvent {
  return {
    key: 'alert:12:fired',
    event: kind,
    at: '2026-11-25T10:00:00.000Z',
    value: 86.2,
    level: 90,
    note: kind === 'acknowledged' ? LONG : null,
    by: kind === 'acknowledged' ? LONG : null,
    site: null,
    link: 'eventwatch://session/c1/s1',
    alert: {
      id: 12, rule: 'reliability-below', connectionId: 'c1', connectionName: LONG, eventSessionId: 's1', eventName: LONG, site: null, siteName: null,
      state: 'firing', severity: 'warning', summary: LONG, firedAt: '2026-11-25T10:00:00.000Z', resolvedAt: null, snoozedUntil: null,
      endReason: null, endKind: null, transitions: [], ...over
    }
  }
}

describe('on-call bodies', () => {
  it('keep to the documented limits, plain, whatever the names', () => {
    const pd = pagerdutyBody(event()) as { payload: { summary: string; severity: string; source: string } }
    expect(pd.payload.summary.length).toBeLessThanOrEqual(1024)
    expect(pd.payload.source.length).toBeLessThanOrEqual(255)
    expect(pd.payload.severity).toBe('warning')
    expect(unsafeCharacters(pd.payload.summary)).toEqual([])
    const create = opsgenieDelivery(event()).body as { message: string; description: string; priority: string; entity: string }
    expect(create.message.length).toBeLessThanOrEqual(130)
    expect(create.description.length).toBeLessThanOrEqual(15_000)
    expect(create.entity.length).toBeLessThanOrEqual(512)
    expect(create.priority).toBe('P3')
    // One plain line per fact: a name cannot start a line of its own.
    expect(create.description.split('\n').every((line) => /^[A-Z][a-z]+: |^Open the session in Eventwatch: /.test(line))).toBe(true)
    const ack = opsgenieDelivery(event({}, 'acknowledged')).body as { user: string; note: string }
    expect(ack.user.length).toBeLessThanOrEqual(100)
    expect(ack.note.length).toBeLessThanOrEqual(25_000)
  })

  it('one key per alert: the same for all its events, another for another cache\'s alert of the same id, at most 255 characters', () => {
    const key = onCallKey(event().alert)
    expect(onCallKey(event({ state: 'resolved' }).alert)).toBe(key)
    expect(onCallKey(event({ connectionId: 'another cache\'s connection' }).alert)).not.toBe(key)
    expect(onCallKey(event({ id: 13 }).alert)).not.toBe(key)
    expect(onCallKey(event({ connectionId: 'c'.repeat(200), id: Number.MAX_SAFE_INTEGER }).alert).length).toBeLessThanOrEqual(255)
    expect(key).toMatch(/^[a-z0-9-]+$/) // goes into Opsgenie's path as it is
  })

  it('a session id no URL can hold (a lone surrogate) leaves the alert without a link, not unqueued', () => {
    expect(alertLink({ kind: 'desk' }, { connectionId: 'c1', eventSessionId: 's\ud800' })).toBeNull()
    expect(alertLink({ kind: 'desk' }, { connectionId: 'c1', eventSessionId: null })).toBeNull()
    expect(alertLink({ kind: 'server', origin: 'https://noc.example' }, { connectionId: 'c1', eventSessionId: 's 1' })).toBe('https://noc.example/#session/c1/s%201')
  })

  it('PagerDuty\'s key goes in front of the stored body; Opsgenie\'s in its header, the path under its address', () => {
    const pd = onCallRequest('pagerduty', { url: 'https://events.pagerduty.com/v2/enqueue', path: null, body: '{"event_action":"trigger"}', secret: 'k'.repeat(32) })
    expect(JSON.parse(pd.body)).toEqual({ routing_key: 'k'.repeat(32), event_action: 'trigger' })
    const og = onCallRequest('opsgenie', { url: 'https://api.eu.opsgenie.com/', path: '/v2/alerts/a/close?identifierType=alias', body: '{}', secret: 'g-key-123' })
    expect(og).toEqual({ url: 'https://api.eu.opsgenie.com/v2/alerts/a/close?identifierType=alias', headers: { Authorization: 'GenieKey g-key-123' }, body: '{}' })
  })

  it('a refusal in the tool\'s words: plain, cut short, any answer', () => {
    expect(refusalWords('pagerduty', 400, '{"message":"Event object is invalid","errors":["a\\u001b[31m","b"]}')).toBe('HTTP 400 from PagerDuty: Event object is invalid; a [31m; b')
    expect(refusalWords('opsgenie', 422, '{"message":"Request body is not processable.","errors":{"message":"Message can not be empty."}}')).toBe(
      'HTTP 422 from Opsgenie: Request body is not processable.; Message can not be empty.'
    )
    expect(refusalWords('opsgenie', 403, '<html>denied</html>')).toBe('HTTP 403 from Opsgenie (is the API key right?)')
    expect(refusalWords('pagerduty', 400, JSON.stringify({ message: 'x'.repeat(5000) })).length).toBeLessThan(400)
  })
})
