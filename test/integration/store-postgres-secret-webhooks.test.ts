// A signed webhook whose signing secret is sealed in a PostgreSQL database (docs/secrets.md) and
// cannot be opened by the server delivering it — another key file, or none — is not sent
// unsigned: the delivery waits, Diagnostics names the secret's row, and a server with the right key
// sends it, signed. An on-call tool's key (PagerDuty's routing key) is sealed the same way and
// put in the body only as it is sent. A real database per test, real key files, a loopback receiver.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { realTimers } from '../../src/shared/timers'
import { SecretUnreadableError } from '../../src/main/core/secrets/sealing'
import type { Store } from '../../src/main/core/store/interface/store'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { chooseSecrets } from '../../src/main/core/store/sealed-secrets'
import { signature } from '../../src/main/core/webhooks/deliver'
import { WebhookDeliverer } from '../../src/main/core/webhooks/deliverer'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { deliveryFor } from '../../src/main/core/webhooks/bodies'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { writeKeyFile } from '../support/secret-key-files'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'

const newDir = tempDirs('eventwatch-pg-secret-webhooks-')
let database: TestDatabase
let dir: string
const cleanups: (() => Promise<unknown>)[] = []

beforeEach(async () => {
  database = await freshDatabase()
  dir = newDir()
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await database.drop()
})

/** A server on the database with `env` (its key file, or none): its store and webhook service. */
async function server(env: NodeJS.ProcessEnv): Promise<{ store: Store; webhooks: WebhookService }> {
  const store = await openPgStore(database.url)
  cleanups.push(() => store.close())
  return { store, webhooks: new WebhookService(store, chooseSecrets(database.url, env)(store)) }
}

async function deliverOnce({ store, webhooks }: { store: Store; webhooks: WebhookService }): Promise<void> {
  const deliverer = new WebhookDeliverer(store, {
    clock: Date.now,
    timers: realTimers,
    secretOf: (id) => webhooks.secretOf(id),
    urlOf: (hook) => webhooks.urlOf(hook)
  })
  await deliverer.runOnce()
  await deliverer.stop()
}

describe('a signing secret the delivering server cannot open', () => {
  for (const [which, env] of [
    ['another key file', (): NodeJS.ProcessEnv => ({ EVENTWATCH_SECRET_KEY_FILE: writeKeyFile(dir, 'other.key') })],
    ['no key file', (): NodeJS.ProcessEnv => ({})]
  ] as const) {
    it(`with ${which}: keeps the delivery waiting, said in Diagnostics by its row, and the right key sends it signed`, async () => {
      const receiver = await webhookReceiver()
      cleanups.push(() => receiver.close())
      const right = await server({ EVENTWATCH_SECRET_KEY_FILE: writeKeyFile(dir) })
      const hook = await right.webhooks.add({ name: 'On call', url: receiver.url, format: 'json' }, 'the signing secret')
      await right.store.withTransaction((tx) =>
        tx.webhooks.enqueue({ webhookId: hook.id, idempotencyKey: 'fired-1', event: 'fired', alertId: null, body: '{"event":"fired"}' }, Date.now() - 1)
      )

      const elsewhere = await server(env())
      await expect(elsewhere.webhooks.secretOf(hook.id)).rejects.toThrow(SecretUnreadableError)
      await deliverOnce(elsewhere)
      expect(receiver.received).toEqual([])
      const [said] = await right.store.read.runs.diagnostics(5)
      expect(said?.message).toMatch(new RegExp(`not signed, so not sent: the secret "webhook:${hook.id}" of eventwatch cannot be decrypted: `))
      expect(said?.message).not.toContain('the signing secret')

      // Due again, and the server with the key sends it, signed.
      await right.store.withTransaction(async (tx) => {
        const head = await tx.webhooks.claimHead(hook.id, Number.MAX_SAFE_INTEGER, { by: 'the test', until: Number.MAX_SAFE_INTEGER })
        if (head) await tx.webhooks.failed(head, 'retry now', Date.now(), Date.now() - 1)
      })
      await deliverOnce(right)
      expect(receiver.received).toHaveLength(1)
      const [got] = receiver.received
      expect(got?.signature).toBe(`sha256=${signature('the signing secret', got?.timestamp ?? '', got?.body ?? '')}`)
    })
  }
})

describe('a PagerDuty routing key on a shared database', () => {
  it('is sealed in its row, absent from the outbox, and sent in the body by a server with the key file', async () => {
    const KEY = 'R0ut1ngK3yR0ut1ngK3yR0ut1ngK3y12'
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const right = await server({ EVENTWATCH_SECRET_KEY_FILE: writeKeyFile(dir) })
    const hook = await right.webhooks.add({ name: 'Pager', url: receiver.url, format: 'pagerduty' }, KEY)
    const at = new Date().toISOString()
    const alert = {
      id: 5, rule: 'reliability-below' as const, connectionId: 'c1', connectionName: 'Contoso', eventSessionId: 's1', eventName: 'Town hall', site: null, siteName: null,
      state: 'firing' as const, severity: 'critical' as const, summary: 'Reliability 80', firedAt: at, resolvedAt: null, snoozedUntil: null, endReason: null, endKind: null, transitions: []
    }
    const { body } = deliveryFor('pagerduty', { key: 'alert:5:fired', event: 'fired', at, alert, value: 80, level: 90, note: null, by: null, site: null, link: 'https://noc.example/#session/c1/s1' })
    await right.store.withTransaction((tx) => tx.webhooks.enqueue({ webhookId: hook.id, idempotencyKey: 'alert:5:fired', event: 'fired', alertId: 5, body }, Date.now() - 1))
    expect(await database.query('SELECT account FROM encrypted_secrets')).toEqual([{ account: `webhook:${hook.id}` }])
    await deliverOnce(right)
    expect(receiver.received).toHaveLength(1)
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ routing_key: KEY, event_action: 'trigger', links: [{ href: 'https://noc.example/#session/c1/s1' }] })
    for (const table of ['webhooks', 'webhook_outbox', 'encrypted_secrets', 'diagnostics']) {
      expect(JSON.stringify(await database.query(`SELECT * FROM ${table}`)), table).not.toContain(KEY)
    }
  })
})
