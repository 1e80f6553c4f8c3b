// What a webhook sends, checked against the shapes the receivers document: Slack's incoming
// webhooks (a fallback `text` and Block Kit blocks: a header of plain_text up to 150 characters,
// a section of at most 10 fields of up to 2000), Microsoft Teams' (a message whose attachment is
// an Adaptive Card: TextBlock and FactSet), and Eventwatch's own JSON. Hostile names stay text.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Alert } from '../../src/shared/alerts'
import { bodyFor, headline, type AlertEvent } from '../../src/main/core/webhooks/bodies'
import { signature } from '../../src/main/core/webhooks/deliver'
import { createHmac } from 'node:crypto'
import { plainText } from '../../src/shared/plain-text'
import { HOSTILE_NAMES, unsafeCharacters } from '../support/hostile-names'
import { parseDeskLink, sessionLink } from '../../src/shared/session-link'
import { alertLink } from '../../src/shared/alert-link'

const text = (max: number) => z.string().min(1).max(max)
const SlackBody = z
  .object({
    text: text(40_000),
    blocks: z
      .array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('header'), text: z.object({ type: z.literal('plain_text'), text: text(150), emoji: z.boolean().optional() }).strict() }).strict(),
          // A section has fields, or a text (Slack: "one of text or fields").
          z
            .object({
              type: z.literal('section'),
              fields: z.array(z.object({ type: z.enum(['mrkdwn', 'plain_text']), text: text(2000) }).strict()).min(1).max(10).optional(),
              text: z.object({ type: z.enum(['mrkdwn', 'plain_text']), text: text(3000) }).strict().optional()
            })
            .strict()
            .refine((section) => (section.fields === undefined) !== (section.text === undefined), 'a section has text or fields')
        ])
      )
      .max(50)
  })
  .strict()

const TeamsBody = z
  .object({
    type: z.literal('message'),
    attachments: z
      .array(
        z
          .object({
            contentType: z.literal('application/vnd.microsoft.card.adaptive'),
            contentUrl: z.null(),
            content: z
              .object({
                $schema: z.literal('http://adaptivecards.io/schemas/adaptive-card.json'),
                type: z.literal('AdaptiveCard'),
                version: z.string().regex(/^1\.\d$/),
                body: z.array(
                  z.discriminatedUnion('type', [
                    z.object({ type: z.literal('TextBlock'), text: z.string(), weight: z.string(), size: z.string(), wrap: z.boolean(), color: z.enum(['Good', 'Warning', 'Attention']) }).strict(),
                    z.object({ type: z.literal('FactSet'), facts: z.array(z.object({ title: z.string(), value: z.string() }).strict()) }).strict()
                  ])
                ),
                actions: z.array(z.object({ type: z.literal('Action.OpenUrl'), title: z.string().min(1), url: z.string().min(1) }).strict()).optional()
              })
              .strict()
          })
          .strict()
      )
      .length(1)
  })
  .strict()

const HOSTILE = '<!channel> =HYPERLINK("http://evil") & <http://evil|click> \u0007' + 'x'.repeat(300)

const LINK = sessionLink({ kind: 'desk' }, { connectionId: 'c1', eventSessionId: 's-42' })

function event(over: Partial<Alert> = {}, kind: AlertEvent['event'] = 'fired'): AlertEvent {
  const alert: Alert = {
    id: 7,
    rule: 'reliability-below',
    connectionId: 'c1',
    connectionName: 'Contoso',
    eventSessionId: 's-42',
    eventName: 'Town hall',
    site: null,
    siteName: null,
    state: 'firing',
    severity: 'critical',
    summary: 'Reliability 86.2, below the critical level 90',
    firedAt: '2026-11-25T10:00:00.000Z',
    resolvedAt: null,
    snoozedUntil: null,
    endReason: null,
    endKind: null,
    transitions: [],
    ...over
  }
  return {
    key: 'alert:7:fired',
    // As the core makes it (enqueue.ts): the session's link, none for an alert about no session.
    link: alertLink({ kind: 'desk' }, alert),
    event: kind,
    at: '2026-11-25T10:00:00.000Z',
    value: 86.2,
    level: 90,
    note: kind === 'acknowledged' ? 'on it' : null,
    by: kind === 'acknowledged' ? 'alice' : null,
    site: null,
    alert
  }
}

describe('webhook bodies', () => {
  it('Slack: the documented incoming-webhook shape, with mrkdwn control characters escaped', () => {
    for (const e of [event(), event({ eventName: HOSTILE, connectionName: HOSTILE }), event({ eventSessionId: null, eventName: null, rule: 'monitor-blind' }, 'resolved')]) {
      const body = JSON.parse(bodyFor('slack', e)) as unknown
      expect(SlackBody.parse(body)).toEqual(body)
    }
    const hostile = JSON.parse(bodyFor('slack', event({ eventName: HOSTILE }))) as z.infer<typeof SlackBody>
    // Where Slack reads mrkdwn (the fallback text, the fields), its controls are escaped;
    // the header is plain_text, shown as typed.
    const section = hostile.blocks[1] as { fields: { text: string }[] }
    const mrkdwn = [hostile.text, ...section.fields.map((f) => f.text)].join('\n')
    expect(mrkdwn).not.toContain('<!channel>')
    expect(mrkdwn).not.toContain('<http://evil|click>')
    expect(mrkdwn).toContain('&lt;!channel&gt;')
    expect(JSON.stringify(hostile)).not.toContain('\\u0007')
    expect(hostile.text).toMatch(/^Fired · critical · /)
  })

  it('Teams: a message with one Adaptive Card, coloured by what happened', () => {
    for (const e of [event(), event({ eventName: HOSTILE }), event({}, 'acknowledged')]) {
      const body = JSON.parse(bodyFor('teams', e)) as unknown
      expect(TeamsBody.parse(body)).toEqual(body)
    }
    const resolved = TeamsBody.parse(JSON.parse(bodyFor('teams', event({ state: 'resolved' }, 'resolved'))))
    const card = resolved.attachments[0]!.content
    expect(card.body[0]).toMatchObject({ type: 'TextBlock', color: 'Good', text: 'Resolved · critical · Town hall: Reliability 86.2, below the critical level 90' })
    expect(card.body[1]).toMatchObject({ type: 'FactSet', facts: expect.arrayContaining([{ title: 'Session', value: 'Town hall (s-42)' }, { title: 'Level', value: '90' }]) })
  })

  it('says an alert that ended still below a level "Ended", with why, never "Resolved" in green (issue 24)', () => {
    const still = 'no longer falling: the drop left its 5-minute window; reliability is still 41.0, below the critical level 90'
    const e = event({ rule: 'reliability-falling', severity: 'warning', state: 'resolved', endKind: 'no-longer-applies', endReason: still }, 'resolved')
    const card = TeamsBody.parse(JSON.parse(bodyFor('teams', e))).attachments[0]!.content
    expect(card.body[0]).toMatchObject({ color: 'Warning', text: expect.stringMatching(/^Ended · warning · Town hall: /) })
    expect(card.body[1]).toMatchObject({ facts: expect.arrayContaining([{ title: 'Ended', value: still }]) })
    const json = JSON.parse(bodyFor('json', e)) as { event: string; alert: { endKind: string; endReason: string } }
    expect(json).toMatchObject({ event: 'resolved', alert: { endKind: 'no-longer-applies', endReason: still } })
    const slack = JSON.parse(bodyFor('slack', e)) as { text: string }
    expect(slack.text).toMatch(/^Ended · warning · /)
  })

  it('JSON: names the rule, severity, state, session, connection, site, value, level and times', () => {
    expect(JSON.parse(bodyFor('json', event({}, 'acknowledged')))).toEqual({
      id: 'alert:7:fired',
      source: 'eventwatch',
      event: 'acknowledged',
      at: '2026-11-25T10:00:00.000Z',
      rule: 'reliability-below',
      severity: 'critical',
      state: 'firing',
      summary: 'Reliability 86.2, below the critical level 90',
      value: 86.2,
      level: 90,
      note: 'on it',
      by: 'alice',
      alert: { id: 7, firedAt: '2026-11-25T10:00:00.000Z', resolvedAt: null, endReason: null, endKind: null },
      connection: { id: 'c1', name: 'Contoso' },
      session: { id: 's-42', name: 'Town hall' },
      site: null,
      link: LINK
    })
  })

  it('every chat format links to the session: JSON\'s link, Teams\' Action.OpenUrl, Slack\'s mrkdwn link; none for an alert about no session', () => {
    const json = JSON.parse(bodyFor('json', event())) as { link: string }
    const card = TeamsBody.parse(JSON.parse(bodyFor('teams', event()))).attachments[0]!.content
    const slack = SlackBody.parse(JSON.parse(bodyFor('slack', event())))
    const slackLink = /^<([^|>]+)\|Open the session in Eventwatch>$/.exec(slack.blocks.flatMap((b) => ('text' in b && b.type === 'section' && b.text ? [b.text.text] : []))[0] ?? '')?.[1]
    for (const link of [json.link, card.actions?.[0]?.url, slackLink]) expect(parseDeskLink(link!)).toEqual({ connectionId: 'c1', eventSessionId: 's-42' })
    const blind = event({ eventSessionId: null, eventName: null, rule: 'monitor-blind' })
    expect(JSON.parse(bodyFor('json', blind))).toMatchObject({ link: null })
    expect(bodyFor('teams', blind)).not.toContain('Action.OpenUrl')
    expect(bodyFor('slack', blind)).not.toContain('Open the session')
  })

  it('names who acknowledged, in every format', () => {
    expect(headline(event({}, 'acknowledged'))).toBe('Acknowledged by alice · critical · Town hall: Reliability 86.2, below the critical level 90')
    expect(headline(event({}, 'fired'))).toMatch(/^Fired · critical · /)
    for (const format of ['teams', 'slack'] as const) expect(bodyFor(format, event({}, 'acknowledged'))).toContain('Acknowledged by alice')
    expect(JSON.parse(bodyFor('json', event({}, 'acknowledged')))).toMatchObject({ event: 'acknowledged', by: 'alice' })
  })

  describe.each(HOSTILE_NAMES)('a hostile name: $what', ({ name }) => {
    // The name everywhere a service or a person can put text: the event, the connection, the
    // site, the note, who acknowledged, the summary; and an id that is no better.
    const hostileId = `s-\u202e${name.slice(0, 40)}`
    const hostile = (kind: AlertEvent['event'] = 'acknowledged'): AlertEvent => {
      const e = event({ eventName: name, connectionName: name, eventSessionId: hostileId, summary: `Reliability 86.2 at ${name}` }, kind)
      return { ...e, note: name, by: name, site: name }
    }

    it('Teams: the card shows it literally (Markdown escaped), with no control, bidi or invisible character', () => {
      const raw = bodyFor('teams', hostile())
      expect(unsafeCharacters(raw)).toEqual([])
      const card = TeamsBody.parse(JSON.parse(raw)).attachments[0]!.content
      const texts = card.body.flatMap((b) => (b.type === 'TextBlock' ? [b.text] : b.facts.map((f) => f.value)))
      for (const text of texts) {
        // CommonMark shows a backslash-escaped punctuation mark as itself; nothing else may be
        // left that starts Markdown: inline anywhere, block markers at the start.
        const unescaped = text.replace(/\\[!-/:-@[-`{-~]/g, '')
        expect(unescaped, text).not.toMatch(/[\\`*_~[\]<>&]/)
        expect(unescaped, text).not.toMatch(/^\s*([#>+-]|\d+[.)])/)
        expect(text.length).toBeLessThanOrEqual(1000)
      }
      const shown = texts.map((t) => t.replace(/\\([!-/:-@[-`{-~])/g, '$1'))
      const literal = plainText(name)
      if (literal.length < 400) expect(shown).toContain(literal) // the Connection fact: the name as typed
      expect(shown.join('\n')).not.toContain('\u202e')
    })

    it('Slack: & < > escaped in mrkdwn, the header plain, no control, bidi or invisible character', () => {
      const raw = bodyFor('slack', hostile())
      expect(unsafeCharacters(raw)).toEqual([])
      const body = SlackBody.parse(JSON.parse(raw))
      const section = body.blocks[1] as { fields: { text: string }[] }
      for (const text of [body.text, ...section.fields.map((f) => f.text)]) {
        expect(text, text).not.toMatch(/[<>]/)
        expect(text.replace(/&(amp|lt|gt);/g, ''), text).not.toContain('&')
      }
    })

    it('JSON: text for people made plain, ids exact, the body carries no control character raw', () => {
      const e = hostile()
      const raw = bodyFor('json', e)
      expect(unsafeCharacters(raw)).toEqual([])
      const body = JSON.parse(raw) as { summary: string; note: string; by: string; site: string; connection: { id: string; name: string }; session: { id: string; name: string } }
      for (const text of [body.summary, body.note, body.by, body.site, body.connection.name, body.session.name]) expect(unsafeCharacters(text)).toEqual([])
      expect(body.session.name).toBe(plainText(name))
      expect(body.session.id).toBe(hostileId) // data: the same id the service gave
      expect(body.connection.id).toBe(e.alert.connectionId)
    })
  })

  it('signs "<timestamp>.<body>" with HMAC-SHA256', () => {
    expect(signature('k', '1700000000', '{"a":1}')).toBe(createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex'))
    expect(signature('k', '1700000000', '{"a":1}')).not.toBe(signature('k', '1700000001', '{"a":1}'))
  })
})
