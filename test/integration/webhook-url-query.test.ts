// Teams Workflows URLs (issue 23): their query carries a signature (`sig=…`) and is a secret. It
// can be added through the app API, deliveries and tests go to the whole URL (a loopback receiver
// checks the query arrived), and it is seen nowhere else: not in what the renderer lists, nor in
// Diagnostics, error texts, the audit log or the cache file (WAL included); the keychain keeps it
// and loses it with the webhook. Without a keychain such a URL is refused in one sentence.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KeychainUnavailableError, osKeychain, type SecretStore } from '../../src/main/core/secrets/keychain'
import { getAlerts, insertAlert } from '../../src/main/core/store/alerts'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import type { Store } from '../../src/main/core/store/interface/store'
import { listDiagnostics } from '../../src/main/core/store/diagnostics'
import { enqueueAlertEvents } from '../../src/main/core/webhooks/enqueue'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { webhookUrlAccount } from '../../src/main/core/webhooks/url-query'
import { WebhookOutbox } from '../../src/main/core/webhooks/outbox'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import type { WebhookView } from '../../src/shared/webhooks'
import { Cleanups, startCore, testKeychain, value } from '../support/app-core'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { tempDirs } from '../support/temp-dirs'
import { storeOn } from '../support/store-on'
import { webhookReceiver } from '../support/webhook-receiver'

const SIG = 'SECRETSIG'
const QUERY = `?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`

const newDir = tempDirs('eventwatch-webhook-url-')
const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

async function receiver() {
  const r = await webhookReceiver()
  cleanups.add(() => r.close())
  return r
}

/** Every file of the cache (the database, its WAL and shared memory) holds no trace of `text`. */
function cacheFilesWithout(dir: string, text: string): void {
  const files = readdirSync(dir).filter((f) => f.startsWith('cache.db'))
  expect(files).toContain('cache.db')
  for (const file of files) expect(readFileSync(join(dir, file)).includes(Buffer.from(text)), file).toBe(false)
}

async function alertFired(db: Db, store: Store, now: number): Promise<string> {
  upsertConnection(db, { id: 'c1', name: 'Tenant', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  const id = insertAlert(db, 'c1', { rule: 'reliability-below', eventSessionId: 's1', eventName: 'Town hall', state: 'firing', severity: 'critical', summary: 'Reliability 80, below the critical level 90', value: 80, streak: 0 }, now)
  await store.withTransaction((tx) => enqueueAlertEvents(tx, { fired: getAlerts(db, [id]), resolved: [], changed: [] }, now))
  return `alert:${id}:fired`
}

describe('a webhook URL with a query (Teams Workflows)', () => {
  it('is added through the app API, tested against the whole URL, shown and kept without its query, and removed with its keychain entry', async () => {
    const dir = newDir()
    const dbFile = join(dir, 'cache.db')
    const secrets = testKeychain(cleanups)
    const r = await receiver()
    const core = await startCore(cleanups, { db: dbFile, secrets })

    const added = await value<WebhookView>(core, 'addWebhook', { settings: { name: 'NOC (Workflows)', url: `${r.url}${QUERY}`, format: 'teams' } })
    expect(added.url).toBe(`${r.url}?…`)
    expect(await secrets.read(webhookUrlAccount(added.id))).toBe(QUERY)
    const listed = await value<WebhookView[]>(core, 'listWebhooks')
    expect(listed.map((h) => h.url)).toEqual([`${r.url}?…`])
    expect(JSON.stringify(listed)).not.toContain(SIG)

    expect(await value(core, 'testWebhook', { id: added.id })).toMatchObject({ ok: true })
    r.answer(404)
    const refused = await value<{ ok: boolean; message: string }>(core, 'testWebhook', { id: added.id })
    expect(refused).toEqual({ ok: false, message: 'not delivered: HTTP 404 from the receiver' })
    expect(r.received.map((x) => x.path)).toEqual([`/hook${QUERY}`, `/hook${QUERY}`])

    // A second with the same name is refused: its words carry no query either.
    const twice = await core.dispatch('addWebhook', { settings: { name: 'noc (workflows)', url: `${r.url}${QUERY}`, format: 'teams' } })
    expect(twice).toMatchObject({ ok: false })
    expect(JSON.stringify(twice)).not.toContain(SIG)
    expect(JSON.stringify(await value(core, 'listAudit', {}))).not.toContain(SIG)
    expect(JSON.stringify(await value(core, 'listDiagnostics', { limit: 500 }))).not.toContain(SIG)

    expect(await value(core, 'deleteWebhook', { id: added.id })).toEqual({ deleted: true })
    expect(await secrets.read(webhookUrlAccount(added.id))).toBeNull()
    await core.close()
    cacheFilesWithout(dir, SIG)
  }, 60_000)

  it('is delivered to with its query, retried, and its failures said in Diagnostics without it', async () => {
    const dir = newDir()
    const db = openDatabase(join(dir, 'cache.db'))
    cleanups.add(() => db.close())
    const timers = new ManualTimers(T0)
    const r = await receiver()
    const store = storeOn(db)
    const service = new WebhookService(store, testKeychain(cleanups), timers.clock)
    await service.add({ name: 'NOC', url: `${r.url}${QUERY}`, format: 'teams' })
    const key = await alertFired(db, store, T0)
    const deliveries = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    cleanups.add(() => deliveries.stop())

    r.answer(503)
    await deliveries.deliverer.runOnce()
    await timers.advance(10_000, () => deliveries.deliverer.runOnce())
    expect(r.received.map((x) => [x.path, x.key, x.status])).toEqual([
      [`/hook${QUERY}`, key, 503],
      [`/hook${QUERY}`, key, 200]
    ])
    const diagnostics = listDiagnostics(db)
    expect(diagnostics.some((d) => d.endpoint === 'webhook NOC' && d.message.includes('HTTP 503 from the receiver'))).toBe(true)
    expect(JSON.stringify(diagnostics)).not.toContain(SIG)
    expect(JSON.stringify(await service.list())).not.toContain(SIG)
    db.pragma('wal_checkpoint(TRUNCATE)')
    cacheFilesWithout(dir, SIG)
  })

  it('is refused in one sentence when no keychain can keep its query, and nothing is kept', async () => {
    const db = openDatabase(join(newDir(), 'cache.db'))
    cleanups.add(() => db.close())
    const noKeytar = osKeychain('eventwatch-test-none', () => Promise.reject(new Error("Cannot find module 'keytar'")))
    const service = new WebhookService(storeOn(db), noKeytar)
    const refused = await service.add({ name: 'NOC', url: `https://prod-00.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke${QUERY}`, format: 'teams' }).catch((e: unknown) => e)
    expect(refused).toMatchObject({
      kind: 'configuration',
      field: 'url',
      message: expect.stringMatching(/^a URL's query is a secret \(as a Teams Workflows sig is\), kept where the other secrets are: the keychain module \(keytar\) is not installed/)
    })
    expect((refused as Error).message).not.toContain('\n')
    expect((refused as Error).message).not.toContain(SIG)
    expect(await service.list()).toEqual([])
    // A URL without a query still needs no keychain.
    await service.add({ name: 'Plain', url: 'https://hooks.example.com/x', format: 'json' })
    expect((await service.list()).map((h) => h.url)).toEqual(['https://hooks.example.com/x'])
  })

  it('waits while the keychain cannot be read, and gives up in words when its query is gone from it', async () => {
    const db = openDatabase(join(newDir(), 'cache.db'))
    cleanups.add(() => db.close())
    const kept = new Map<string, string>()
    let locked = false
    const secrets: SecretStore = {
      save: async (account, secret) => void kept.set(account, secret),
      read: async (account) => {
        if (locked) throw new KeychainUnavailableError(new Error('the keyring is locked'))
        return kept.get(account) ?? null
      },
      remove: async (account) => kept.delete(account)
    }
    const timers = new ManualTimers(T0)
    const r = await receiver()
    const store = storeOn(db)
    const service = new WebhookService(store, secrets, timers.clock)
    const hook = await service.add({ name: 'NOC', url: `${r.url}${QUERY}`, format: 'teams' })
    await alertFired(db, store, T0)
    const deliveries = startWebhookDeliveries(store, new WebhookOutbox(), service, { clock: timers.clock, timers })
    cleanups.add(() => deliveries.stop())

    locked = true
    await deliveries.deliverer.runOnce()
    expect(r.received).toEqual([])
    expect((await service.list())[0]).toMatchObject({ pending: 1, failed: 0, lastError: expect.stringMatching(/^the URL's query could not be read from the OS keychain: /) })

    locked = false
    kept.delete(webhookUrlAccount(hook.id))
    await timers.advance(10_000, () => deliveries.deliverer.runOnce())
    expect(r.received).toEqual([])
    expect((await service.list())[0]).toMatchObject({
      pending: 0,
      failed: 1,
      lastError: `the URL's query is missing from the OS keychain (account webhook-url:${hook.id}): remove the webhook and add it again`
    })
    expect(await service.test(hook.id)).toEqual({ ok: false, message: expect.stringMatching(/^not delivered: the URL's query is missing from the OS keychain/) })
  })
})
