// Webhooks end to end (issue 16): a simulated incident through the app's pollers and alert
// rules, on a clock the test moves by hand; a loopback receiver that refuses the first delivery
// still gets each alert's fire and its resolution exactly once (by idempotency key), signed;
// and what is queued survives a restart of the app and is not sent twice.
import { createHmac, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from '../support/poll-stores'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startSimulator } from '../../src/main/core/simulator/server'
import { getAlerts, insertAlert, moveAlert } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase } from '../../src/main/core/store/db'
import { listDiagnostics } from '../../src/main/core/store/diagnostics'
import { enqueueAlertEvents } from '../../src/main/core/webhooks/enqueue'
import { webhookSecretAccount, WebhookService } from '../../src/main/core/webhooks/service'
import { WebhookOutbox } from '../../src/main/core/webhooks/outbox'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storeOn } from '../support/store-on'
import { webhookReceiver } from '../support/webhook-receiver'

const keychain = osKeychain(`eventwatch-test-${randomUUID()}`)
const accounts: string[] = []
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(async () => {
  for (const account of accounts) await keychain.remove(account).catch(() => undefined)
})

const SECRET = 'webhook-signing-secret'

describe('webhooks', () => {
  it('deliver each alert\'s fire and resolution exactly once, signed, though the first delivery is refused', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 3, endedSessions: 0, viewersPerSession: 50, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const { db, target } = simulatorCache(sim)
    const hub = new EventHub()
    const store = storeOn(db)
    const service = new WebhookService(store, keychain, timers.clock)
    const hook = await service.add({ name: 'On call', url: receiver.url, format: 'json' }, SECRET)
    accounts.push(webhookSecretAccount(hook.id))
    const outbox = new WebhookOutbox()
    const deliveries = startWebhookDeliveries(store, outbox, service, { clock: timers.clock, timers })
    const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep: async () => undefined, maxAttempts: 2 } })
    const group = await PollerGroup.open(storeOn(db), hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers, outbox })
    await group.start([{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }])
    cleanups.push(() => deliveries.stop(), () => group.stop())
    const settle = async (): Promise<void> => {
      await group.idle()
      await deliveries.deliverer.runOnce()
    }
    await group.idle()
    const advance = (ms: number) => timers.advance(ms, settle)
    await advance(2 * 60_000)
    expect(receiver.received).toEqual([])

    // The receiver is busy the first time; the incident fires, then recovers.
    receiver.answer(503)
    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]?.eventSessionId ?? ''
    sim.faults.incident(victim, { drop: 25, minutes: 5 })
    await advance(15 * 60_000)

    const delivered = receiver.received.filter((r) => r.status === 200)
    const bodies = delivered.map((r) => JSON.parse(r.body) as { id: string; event: string; rule: string; session: { id: string } })
    // The first attempt was refused, and the same delivery (same key) made it later.
    expect(receiver.received[0]?.status).toBe(503)
    expect(delivered.map((r) => r.key)).toContain(receiver.received[0]?.key)
    // Exactly once each: no key delivered twice; every alert that fired also resolved, once.
    expect(new Set(delivered.map((r) => r.key)).size).toBe(delivered.length)
    const fired = bodies.filter((b) => b.event === 'fired')
    const resolved = bodies.filter((b) => b.event === 'resolved')
    expect(fired.length).toBeGreaterThanOrEqual(1)
    expect(resolved.map((b) => b.rule).sort()).toEqual(fired.map((b) => b.rule).sort())
    expect(new Set(bodies.map((b) => b.session.id))).toEqual(new Set([victim]))
    // Signed: HMAC-SHA256 of "<timestamp>.<body>" with the secret kept in the keychain.
    for (const r of delivered) {
      expect(r.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(`${r.timestamp}.${r.body}`).digest('hex')}`)
    }
    // The refusal is in Diagnostics, by the webhook's name.
    expect(listDiagnostics(db).some((d) => d.endpoint === 'webhook On call' && /HTTP 503 from the receiver; trying again in 10 s/.test(d.message))).toBe(true)
    expect((await service.list())[0]).toMatchObject({ pending: 0, failed: 0, lastError: null })
  }, 60_000)

  it('keeps what is queued across a restart, and never queues or sends the same event twice', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-webhooks-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'cache.db')
    const timers = new ManualTimers(T0)

    // First run: an alert fires; the receiver refuses everything; the app quits.
    let db = openDatabase(file)
    upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
    let store = storeOn(db)
    let service = new WebhookService(store, keychain, timers.clock)
    await service.add({ name: 'Team', url: receiver.url, format: 'slack' })
    const id = insertAlert(db, 'c1', { rule: 'reliability-below', eventSessionId: 's1', eventName: 'Town hall', state: 'firing', severity: 'critical', summary: 'Reliability 80, below the critical level 90', value: 80, streak: 0 }, T0)
    const change = () => {
      const [alert] = getAlerts(db, [id])
      return { fired: alert?.state === 'firing' ? [alert] : [], resolved: alert?.state === 'resolved' ? [alert] : [], changed: alert ? [alert] : [] }
    }
    expect(await store.withTransaction((tx) => enqueueAlertEvents(tx, change(), T0))).toBe(1)
    receiver.answer(503, 503, 503)
    let run = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    await run.deliverer.runOnce()
    await timers.advance(10_000, () => run.deliverer.runOnce())
    expect(receiver.received.map((r) => r.status)).toEqual([503, 503])
    await run.stop()
    await store.close()
    db.close()

    // Second run: the same file; the receiver is back. The waiting delivery goes, once.
    db = openDatabase(file)
    store = storeOn(db)
    service = new WebhookService(store, keychain, timers.clock)
    expect((await service.list())[0]).toMatchObject({ pending: 1, lastError: 'HTTP 503 from the receiver' })
    receiver.answer()
    run = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    cleanups.push(() => run.stop(), () => void db.close())
    await timers.advance(60_000, () => run.deliverer.runOnce())
    // Announced again (a push repeated after the restart): not queued again.
    expect(await store.withTransaction((tx) => enqueueAlertEvents(tx, change(), timers.now))).toBe(0)
    moveAlert(db, id, 'resolved', 'critical', 97, 'recovered', timers.now)
    expect(await store.withTransaction((tx) => enqueueAlertEvents(tx, change(), timers.now))).toBe(1)
    await run.deliverer.runOnce()
    const ok = receiver.received.filter((r) => r.status === 200)
    expect(ok.map((r) => [r.key, r.event])).toEqual([
      [`alert:${id}:fired`, 'fired'],
      [`alert:${id}:resolved`, 'resolved']
    ])
    expect((await service.list())[0]).toMatchObject({ pending: 0, failed: 0, lastError: null })
  }, 30_000)
})
