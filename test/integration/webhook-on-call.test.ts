// Webhooks to on-call tools (issue 27), posted over real loopback HTTP from the outbox of a real
// cache file, with the keys in the OS keychain: PagerDuty's Events API v2 (trigger, acknowledge
// and resolve sharing one dedup_key, the routing key in the body) and Opsgenie's Alert API
// (create with an alias, then acknowledge and close by that alias, the key in a GenieKey header),
// each checked against the documented shape. The key is in no row of the cache and no
// Diagnostics line, and a refusal names the tool's own words. Every body, in every format, links
// to the alert's session on the core's LinkBase (here a team server's page, parsed back from its hash).
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { getAlerts, insertAlert, moveAlert } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { listDiagnostics } from '../../src/main/core/store/diagnostics'
import { enqueueAlertEvents } from '../../src/main/core/webhooks/enqueue'
import { webhookSecretAccount, WebhookService } from '../../src/main/core/webhooks/service'
import { WebhookOutbox } from '../../src/main/core/webhooks/outbox'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import { parseAppTarget } from '../../src/shared/deep-link'
import type { LinkBase } from '../../src/shared/session-link'
import type { WebhookFormat } from '../../src/shared/webhooks'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { storeOn } from '../support/store-on'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'
import { HOSTILE_NAMES } from '../support/hostile-names'

const keychain = osKeychain(`eventwatch-test-${randomUUID()}`)
const accounts: string[] = []
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  for (const account of accounts) await keychain.remove(account).catch(() => undefined)
})
const newDir = tempDirs('eventwatch-on-call-')

// As PagerDuty's and Opsgenie's keys look: 32 characters.
const ROUTING_KEY = 'R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12'
const GENIE_KEY = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
const SERVER: LinkBase = { kind: 'server', origin: 'https://noc.example:4780' }
const SESSION = 's/1#x' // ids may hold '/' and '#': the link escapes them
const HOSTILE = HOSTILE_NAMES[0]!.name

/** The session a server link opens: its origin, and the target its hash names. */
function opened(link: string | undefined): unknown {
  const url = new URL(link ?? 'about:blank')
  return { origin: url.origin, target: parseAppTarget(url.hash) }
}
const OPENS_THE_SESSION = { origin: SERVER.origin, target: { view: 'session', connectionId: 'c1', eventSessionId: SESSION } }

// PagerDuty Events API v2, as documented (developer.pagerduty.com, "Send an Alert Event").
const PagerDutyEvent = z
  .object({
    routing_key: z.string().length(32),
    event_action: z.enum(['trigger', 'acknowledge', 'resolve']),
    dedup_key: z.string().min(1).max(255),
    payload: z
      .object({
        summary: z.string().min(1).max(1024),
        source: z.string().min(1),
        severity: z.enum(['critical', 'error', 'warning', 'info']),
        timestamp: z.string().datetime({ offset: true }),
        component: z.string().nullable().optional(),
        class: z.string().optional(),
        custom_details: z.record(z.string(), z.unknown())
      })
      .strict(),
    client: z.string().optional(),
    client_url: z.string().optional(),
    links: z.array(z.object({ href: z.string(), text: z.string() }).strict())
  })
  .strict()

// Opsgenie Alert API: create (POST /v2/alerts), and acknowledge / close by alias.
const OpsgenieCreate = z
  .object({
    message: z.string().min(1).max(130),
    alias: z.string().min(1).max(512),
    description: z.string().max(15_000),
    priority: z.enum(['P1', 'P2', 'P3', 'P4', 'P5']),
    source: z.string().max(100),
    entity: z.string().max(512),
    tags: z.array(z.string()),
    details: z.record(z.string(), z.string())
  })
  .strict()
const OpsgenieAction = z.object({ source: z.string().max(100), user: z.string().max(100).optional(), note: z.string().max(25_000) }).strict()

interface Setup {
  db: Db
  service: WebhookService
  /** Fires, acknowledges, then resolves one alert, each change queued and delivered. */
  lifecycle(): Promise<void>
}

async function setUp(hooks: { name: string; url: string; format: WebhookFormat; secret?: string }[], sessionName = 'Town hall'): Promise<Setup> {
  const db = openDatabase(join(newDir(), 'cache.db'))
  const store = storeOn(db)
  const timers = new ManualTimers(T0)
  cleanups.push(async () => {
    await store.close()
    db.close()
  })
  upsertConnection(db, { id: 'c1', name: 'Contoso', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  const service = new WebhookService(store, keychain, timers.clock, () => SERVER)
  for (const hook of hooks) {
    const added = await service.add({ name: hook.name, url: hook.url, format: hook.format }, hook.secret)
    accounts.push(webhookSecretAccount(added.id))
  }
  const run = startWebhookDeliveries(store, new WebhookOutbox(() => SERVER), service, { clock: timers.clock, timers })
  cleanups.push(() => run.stop())
  const queue = async (change: { fired?: number[]; resolved?: number[]; changed?: number[] }): Promise<void> => {
    const of = (ids?: number[]) => (ids ? getAlerts(db, ids) : [])
    await store.withTransaction((tx) => enqueueAlertEvents(tx, { fired: of(change.fired), resolved: of(change.resolved), changed: of(change.changed) }, timers.now, SERVER))
    await run.deliverer.runOnce()
  }
  return {
    db,
    service,
    async lifecycle() {
      const id = insertAlert(db, 'c1', { rule: 'reliability-below', eventSessionId: SESSION, eventName: sessionName, state: 'firing', severity: 'critical', summary: 'Reliability 80, below the critical level 90', value: 80, streak: 0 }, timers.now)
      await queue({ fired: [id] })
      await timers.advance(60_000, async () => undefined)
      moveAlert(db, id, 'acknowledged', 'critical', null, 'on it', timers.now)
      await queue({ changed: [id] })
      await timers.advance(60_000, async () => undefined)
      moveAlert(db, id, 'resolved', 'critical', 96, 'recovered', timers.now, undefined, 'recovered')
      await queue({ resolved: [id] })
    }
  }
}

/** Every text the cache holds in the webhooks' tables and Diagnostics, read through SQLite. */
function cachedText(db: Db): string {
  const rows = [
    ...db.prepare('SELECT * FROM webhooks').all(),
    ...db.prepare('SELECT * FROM webhook_outbox').all(),
    ...db.prepare('SELECT * FROM diagnostics').all()
  ]
  return JSON.stringify(rows)
}

describe('on-call webhooks', () => {
  it('PagerDuty: trigger, acknowledge and resolve share one dedup_key; the routing key is sent but never stored', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const { db, service, lifecycle } = await setUp([{ name: 'Pager', url: receiver.url, format: 'pagerduty', secret: ROUTING_KEY }])
    await lifecycle()

    const events = receiver.received.map((r) => PagerDutyEvent.parse(JSON.parse(r.body)))
    expect(events.map((e) => e.event_action)).toEqual(['trigger', 'acknowledge', 'resolve'])
    expect(new Set(events.map((e) => e.dedup_key)).size).toBe(1)
    expect(events[0]!.dedup_key).toMatch(/^eventwatch-alert-\d+-[0-9a-f]{16}$/)
    for (const e of events) {
      expect(e.routing_key).toBe(ROUTING_KEY)
      expect(e.payload).toMatchObject({ severity: 'critical', source: 'Eventwatch · Contoso', component: 'Town hall' })
      expect(e.payload.custom_details).toMatchObject({ connection: 'Contoso', connectionId: 'c1', sessionId: SESSION, session: 'Town hall', value: expect.any(Number) })
      expect(opened(e.links[0]?.href)).toEqual(OPENS_THE_SESSION)
    }
    expect(events[0]!.payload.summary).toBe('Fired · critical · Town hall: Reliability 80, below the critical level 90')
    expect(events[1]!.payload.custom_details).toMatchObject({ note: 'on it' })
    // Not an HMAC-signed delivery: the key is how PagerDuty knows the sender.
    expect(receiver.received.every((r) => r.signature === undefined)).toBe(true)
    // The key is in the keychain only: no row of the cache holds it, no failure line names it.
    expect(cachedText(db)).not.toContain(ROUTING_KEY)
    expect(JSON.stringify(await service.list())).not.toContain(ROUTING_KEY)
  })

  it('Opsgenie: create with an alias, then acknowledge and close by that alias, the key in a GenieKey header only', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const base = new URL(receiver.url).origin
    const { db, lifecycle } = await setUp([{ name: 'Genie', url: base, format: 'opsgenie', secret: GENIE_KEY }])
    await lifecycle()

    const [create, ack, close] = receiver.received
    const created = OpsgenieCreate.parse(JSON.parse(create!.body))
    expect(create!.path).toBe('/v2/alerts')
    expect(ack!.path).toBe(`/v2/alerts/${created.alias}/acknowledge?identifierType=alias`)
    expect(close!.path).toBe(`/v2/alerts/${created.alias}/close?identifierType=alias`)
    expect(created).toMatchObject({ priority: 'P1', source: 'Eventwatch', entity: 'Town hall', message: 'Town hall: Reliability 80, below the critical level 90' })
    expect(created.details).toMatchObject({ connection: 'Contoso', connectionId: 'c1', sessionId: SESSION, value: '80' })
    expect(opened(created.details.link)).toEqual(OPENS_THE_SESSION)
    expect(created.description).toContain(`Open the session in Eventwatch: ${created.details.link}`)
    for (const action of [ack!, close!]) {
      const body = OpsgenieAction.parse(JSON.parse(action.body))
      expect(opened(/Open the session in Eventwatch: (\S+)$/.exec(body.note)?.[1])).toEqual(OPENS_THE_SESSION)
    }
    expect(OpsgenieAction.parse(JSON.parse(ack!.body)).note).toContain('on it')
    for (const r of receiver.received) expect(r.authorization).toBe(`GenieKey ${GENIE_KEY}`)
    for (const r of receiver.received) expect(r.body).not.toContain(GENIE_KEY)
    expect(cachedText(db)).not.toContain(GENIE_KEY)
  })

  it('a refusal names the tool\'s own words, with the key redacted if echoed, and is given up (a 4xx does not fix itself)', async () => {
    const pager = await webhookReceiver()
    const genie = await webhookReceiver()
    cleanups.push(() => pager.close(), () => genie.close())
    pager.answer({ status: 400, json: { status: 'invalid event', message: 'Event object is invalid', errors: ["Length of 'routing_key' is incorrect (should be 32 characters)"] } })
    genie.answer({ status: 401, json: { message: `Key ${GENIE_KEY} is not valid`, took: 0.001, requestId: 'r-1' } })
    const { db, service, lifecycle } = await setUp([
      { name: 'Pager', url: pager.url, format: 'pagerduty', secret: ROUTING_KEY },
      { name: 'Genie', url: new URL(genie.url).origin, format: 'opsgenie', secret: GENIE_KEY }
    ])
    await lifecycle()
    const lines = listDiagnostics(db).map((d) => `${d.endpoint}: ${d.message}`)
    expect(lines.find((l) => l.startsWith('webhook Pager'))).toMatch(
      /HTTP 400 from PagerDuty: Event object is invalid; Length of 'routing_key' is incorrect \(should be 32 characters\); given up$/
    )
    expect(lines.find((l) => l.startsWith('webhook Genie'))).toMatch(/HTTP 401 from Opsgenie: Key \[redacted\] is not valid \(is the API key right\?\); given up$/)
    const views = await service.list()
    expect(views.find((v) => v.name === 'Genie')?.lastError).toMatch(/^HTTP 401 from Opsgenie/)
    expect(cachedText(db)).not.toContain(GENIE_KEY)
    expect(cachedText(db)).not.toContain(ROUTING_KEY)
  })

  it('JSON, Teams and Slack bodies link to the session, and hostile names stay plain text beside the link', async () => {
    const receivers = { json: await webhookReceiver(), teams: await webhookReceiver(), slack: await webhookReceiver() }
    for (const r of Object.values(receivers)) cleanups.push(() => r.close())
    const { lifecycle } = await setUp(
      (['json', 'teams', 'slack'] as const).map((format) => ({ name: format, url: receivers[format].url, format })),
      HOSTILE
    )
    await lifecycle()
    for (const format of ['json', 'teams', 'slack'] as const) expect(receivers[format].received).toHaveLength(3)
    for (const r of receivers.json.received) {
      const body = JSON.parse(r.body) as { link: string; session: { name: string } }
      expect(opened(body.link)).toEqual(OPENS_THE_SESSION)
      expect(body.session.name).toBe(HOSTILE) // plain text, as typed
    }
    // Teams' Markdown makes no link of the name: it is escaped, and the card's one link is the session's.
    for (const r of receivers.teams.received) {
      const card = (JSON.parse(r.body) as { attachments: { content: { body: { text?: string }[] } }[] }).attachments[0]!.content
      expect(card.body[0]!.text).toContain('\\[click\\](http://evil.example)')
    }
    for (const r of receivers.teams.received) {
      const card = (JSON.parse(r.body) as { attachments: { content: { actions: { type: string; url: string }[] } }[] }).attachments[0]!.content
      expect(card.actions[0]!.type).toBe('Action.OpenUrl')
      expect(opened(card.actions[0]!.url)).toEqual(OPENS_THE_SESSION)
    }
    for (const r of receivers.slack.received) {
      const blocks = (JSON.parse(r.body) as { blocks: { text?: { text: string } }[] }).blocks
      const link = blocks.map((b) => /^<([^|>]+)\|Open the session in Eventwatch>$/.exec(b.text?.text ?? '')?.[1]).find(Boolean)
      expect(opened(link)).toEqual(OPENS_THE_SESSION)
    }
  })
})
