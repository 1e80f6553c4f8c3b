// A signed webhook whose signing secret is kept in the database (docs/secrets.md) and cannot be
// decrypted by this server (another key file) is not sent unsigned: the delivery waits, Diagnostics
// names the secret's row, and a server with the right key sends it, signed. A real cache file, a
// loopback receiver.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { realTimers } from '../../src/shared/timers'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { encryptedDatabaseSecrets } from '../../src/main/core/store/sealed-secrets'
import { signature } from '../../src/main/core/webhooks/deliver'
import { WebhookDeliverer } from '../../src/main/core/webhooks/deliverer'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { SecretUnreadableError } from '../../src/main/core/secrets/sealing'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'

const newDir = tempDirs('eventwatch-webhook-unreadable-')
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function deliverer(store: SqliteStore, service: WebhookService): WebhookDeliverer {
  return new WebhookDeliverer(store, { clock: Date.now, timers: realTimers, secretOf: (id) => service.secretOf(id), urlOf: (hook) => service.urlOf(hook) })
}

describe('a signing secret that cannot be decrypted', () => {
  it('keeps the delivery waiting, said in Diagnostics by its row, and the right key sends it signed', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const store = openSqliteStore(join(newDir(), 'cache.db'))
    cleanups.push(() => store.close())
    const key = randomBytes(32)
    const right = new WebhookService(store, encryptedDatabaseSecrets(store, key))
    const hook = await right.add({ name: 'On call', url: receiver.url, format: 'json' }, 'the signing secret')
    await store.withTransaction((tx) =>
      tx.webhooks.enqueue({ webhookId: hook.id, idempotencyKey: 'fired-1', event: 'fired', alertId: null, body: '{"event":"fired"}' }, Date.now() - 1)
    )

    const wrong = new WebhookService(store, encryptedDatabaseSecrets(store, randomBytes(32)))
    await expect(wrong.secretOf(hook.id)).rejects.toThrow(SecretUnreadableError)
    const elsewhere = deliverer(store, wrong)
    await elsewhere.runOnce()
    await elsewhere.stop()
    expect(receiver.received).toEqual([])
    const [said] = await store.read.runs.diagnostics(5)
    expect(said?.message).toMatch(
      new RegExp(`not signed, so not sent: the secret "webhook:${hook.id}" of eventwatch cannot be decrypted: it was encrypted under another key`)
    )
    expect(said?.message).not.toContain('the signing secret')

    // Due again, and a server with the key sends it, signed.
    await store.withTransaction(async (tx) => {
      const head = await tx.webhooks.dueHead(hook.id, Number.MAX_SAFE_INTEGER)
      if (head) await tx.webhooks.failed(head.id, 'retry now', Date.now(), Date.now() - 1)
    })
    const here = deliverer(store, right)
    await here.runOnce()
    await here.stop()
    expect(receiver.received).toHaveLength(1)
    const [got] = receiver.received
    expect(got?.signature).toBe(`sha256=${signature('the signing secret', got?.timestamp ?? '', got?.body ?? '')}`)
  })
})
