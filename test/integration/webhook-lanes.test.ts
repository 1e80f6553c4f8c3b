// Webhooks deliver independently (issue 23): each webhook has a lane of its own, so a receiver
// that never answers holds back only itself, while each webhook still gets its events one at a
// time and in order (an alert's fire before its resolution, also across a retry). Real receivers
// on loopback, a real SQLite file; the deliverer's timers move by hand.
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import { getAlerts, insertAlert, moveAlert } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import type { Store } from '../../src/main/core/store/interface/store'
import { enqueueAlertEvents } from '../../src/main/core/webhooks/enqueue'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { WebhookOutbox } from '../../src/main/core/webhooks/outbox'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { storeOn } from '../support/store-on'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver, type OpenGauge } from '../support/webhook-receiver'

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>

// Unsigned webhooks with plain URLs never ask the keychain.
const noKeychain: SecretStore = {
  save: () => Promise.reject(new Error('no keychain in this test')),
  read: () => Promise.reject(new Error('no keychain in this test')),
  remove: () => Promise.reject(new Error('no keychain in this test'))
}

const newDir = tempDirs('eventwatch-webhook-lanes-')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function receivers(count: number, gauge?: OpenGauge): Promise<Receiver[]> {
  const all = await Promise.all(Array.from({ length: count }, () => webhookReceiver(gauge ? { gauge } : {})))
  for (const r of all) cleanups.push(() => r.close())
  return all
}

function cache(): { db: Db; store: Store; service: WebhookService; timers: ManualTimers } {
  const db = openDatabase(join(newDir(), 'cache.db'))
  cleanups.push(() => void db.close())
  upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  const timers = new ManualTimers(T0)
  const store = storeOn(db)
  return { db, store, service: new WebhookService(store, noKeychain, timers.clock), timers }
}

/** `count` alerts fire, then all resolve: each webhook's outbox holds every fire, then every resolution. */
async function incident(db: Db, store: Store, count: number, now: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) =>
    insertAlert(db, 'c1', { rule: 'reliability-below', eventSessionId: `s${i}`, eventName: `Town hall ${i}`, state: 'firing', severity: 'critical', summary: 'Reliability 80, below the critical level 90', value: 80, streak: 0 }, now)
  )
  await store.withTransaction((tx) => enqueueAlertEvents(tx, { fired: getAlerts(db, ids), resolved: [], changed: [] }, now))
  for (const id of ids) moveAlert(db, id, 'resolved', 'critical', 97, 'recovered', now)
  await store.withTransaction((tx) => enqueueAlertEvents(tx, { fired: [], resolved: getAlerts(db, ids), changed: [] }, now))
  return [...ids.map((id) => `alert:${id}:fired`), ...ids.map((id) => `alert:${id}:resolved`)]
}

const deliveredKeys = (r: Receiver): string[] => r.received.filter((x) => x.status === 200).map((x) => x.key)

describe('webhook deliveries', () => {
  it('go to every other receiver, in order, while one receiver hangs without answering', async () => {
    const { db, store, service, timers } = cache()
    const [hanging, json, teams, slack] = (await receivers(4)) as [Receiver, Receiver, Receiver, Receiver]
    hanging.answer('hang')
    // Named so the hanging one's deliveries are queued first of each event.
    await service.add({ name: 'A receiver that hangs', url: hanging.url, format: 'json' })
    await service.add({ name: 'B json', url: json.url, format: 'json' })
    await service.add({ name: 'C teams', url: teams.url, format: 'teams' })
    await service.add({ name: 'D slack', url: slack.url, format: 'slack' })
    const keys = await incident(db, store, 5, T0)
    const deliveries = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    cleanups.push(() => deliveries.stop())

    void deliveries.deliverer.runOnce()
    const hangingTimedOut = async (): Promise<boolean> => (await service.findByName('A receiver that hangs'))?.lastError != null
    const othersDone = (): boolean => [json, teams, slack].every((r) => deliveredKeys(r).length === keys.length)
    await vi.waitFor(
      async () => {
        if (!othersDone() && !(await hangingTimedOut())) throw new Error('the other receivers are still waiting')
      },
      { timeout: 30_000, interval: 20 }
    )
    // Every event reached the others before the hanging receiver's first delivery timed out.
    expect(await hangingTimedOut()).toBe(false)
    expect(hanging.open).toBe(1)
    for (const r of [json, teams, slack]) expect(deliveredKeys(r)).toEqual(keys)
    // The hanging webhook's own deliveries wait behind its first, one request at a time.
    expect(hanging.received.map((r) => r.key)).toEqual([keys[0]])
    expect(hanging.maxOpen).toBe(1)

    // Quitting abandons the hanging request uncounted: all ten are still waiting for a restart.
    await deliveries.stop()
    expect(await service.findByName('A receiver that hangs')).toMatchObject({ pending: keys.length, failed: 0, lastError: null })
  }, 40_000)

  it('keep a webhook\'s order across a retry: its resolution waits behind the refused fire', async () => {
    const { db, store, service, timers } = cache()
    const [receiver] = (await receivers(1)) as [Receiver]
    receiver.answer(503)
    await service.add({ name: 'On call', url: receiver.url, format: 'json' })
    const keys = await incident(db, store, 1, T0)
    const deliveries = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    cleanups.push(() => deliveries.stop())

    await deliveries.deliverer.runOnce()
    expect(receiver.received.map((r) => [r.key, r.status])).toEqual([[keys[0], 503]])
    await timers.advance(10_000, () => deliveries.deliverer.runOnce())
    expect(receiver.received.map((r) => [r.key, r.status])).toEqual([
      [keys[0], 503],
      [keys[0], 200],
      [keys[1], 200]
    ])
  })

  it('have at most one request in flight per webhook, and at most `parallel` webhooks at once', async () => {
    const { db, store, service, timers } = cache()
    const gauge: OpenGauge = { open: 0, max: 0 }
    const all = await receivers(3, gauge)
    for (const [i, r] of all.entries()) {
      r.answer('hang')
      await service.add({ name: `Hook ${i}`, url: r.url, format: 'json' })
    }
    const keys = await incident(db, store, 2, T0)
    const deliveries = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers, parallel: 2 })
    cleanups.push(() => deliveries.stop())

    const run = deliveries.deliverer.runOnce()
    // Two webhooks take the two places; the third waits for one of them to end its lane.
    await vi.waitFor(() => expect(all.filter((r) => r.received.length > 0)).toHaveLength(2), { timeout: 5_000, interval: 20 })
    expect(gauge.open).toBe(2)
    const [waiting] = all.filter((r) => r.received.length === 0)
    for (const r of all) r.release()
    await vi.waitFor(() => expect(waiting?.open).toBe(1), { timeout: 5_000, interval: 20 })
    waiting?.release()
    await run

    expect(gauge.max).toBe(2)
    for (const r of all) {
      expect(r.maxOpen).toBe(1)
      expect(deliveredKeys(r)).toEqual(keys)
    }
  })
})
