// Adding webhooks through WebhookService on the Store: the keychain is written before the row's
// unit of work, so the name is asked again inside that unit. Two adds of one name at once (two
// operators, or a CLI beside the app) end with one webhook, and the other refused in words naming
// the field, its secret gone from the keychain. A real cache file; a keychain that takes its time.
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import { openDatabase } from '../../src/main/core/store/db'
import { webhookSecretAccount, WebhookService } from '../../src/main/core/webhooks/service'
import { storeOn } from '../support/store-on'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-webhook-service-')

/** A keychain that answers on a later turn of the event loop, as the OS keychain does. */
function slowKeychain(): { secrets: SecretStore; kept: Map<string, string> } {
  const kept = new Map<string, string>()
  const later = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))
  const secrets: SecretStore = {
    save: async (account, secret) => {
      await later()
      kept.set(account, secret)
    },
    read: async (account) => {
      await later()
      return kept.get(account) ?? null
    },
    remove: async (account) => {
      await later()
      return kept.delete(account)
    }
  }
  return { secrets, kept }
}

function service(): { webhooks: WebhookService; kept: Map<string, string> } {
  const db = openDatabase(join(newDir(), 'cache.db'))
  onTestFinished(() => void db.close())
  const { secrets, kept } = slowKeychain()
  return { webhooks: new WebhookService(storeOn(db), secrets), kept }
}

const onCall = (url: string) => ({ name: 'On call', url, format: 'json' as const })

describe('adding a webhook', () => {
  it('refuses a second one of the same name (in any case), naming the field, and keeps nothing of it', async () => {
    const { webhooks, kept } = service()
    const first = await webhooks.add(onCall('https://hooks.example.com/a'), 'first secret')
    const refused = await webhooks.add({ ...onCall('https://hooks.example.com/b'), name: 'ON CALL' }, 'second secret').catch((e: unknown) => e)
    expect(refused).toMatchObject({ kind: 'configuration', field: 'name', message: 'a webhook named "ON CALL" exists already: choose another name' })
    expect([...kept.keys()]).toEqual([webhookSecretAccount(first.id)])
  })

  it('of one name twice at once: one is added, the other refused in words naming the field, its secret gone from the keychain', async () => {
    const { webhooks, kept } = service()
    const [a, b] = await Promise.allSettled([
      webhooks.add(onCall('https://hooks.example.com/a'), 'secret a'),
      webhooks.add(onCall('https://hooks.example.com/b'), 'secret b')
    ])
    expect(a).toMatchObject({ status: 'fulfilled', value: { name: 'On call', url: 'https://hooks.example.com/a', signed: true } })
    expect(b).toMatchObject({
      status: 'rejected',
      reason: { kind: 'configuration', field: 'name', message: 'a webhook named "On call" exists already: choose another name' }
    })
    expect((await webhooks.list()).map((h) => h.url)).toEqual(['https://hooks.example.com/a'])
    expect([...kept.values()]).toEqual(['secret a'])
  })
})
