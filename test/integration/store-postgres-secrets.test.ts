// Secrets on a shared database (issue 26; docs/secrets.md), on a real PostgreSQL: sealed with
// AES-256-GCM under the 32 bytes of a real key file, bound to their row, in no row of any table in
// clear; another key, an altered or moved row said in words; and without the key file, a secret
// refused in one sentence with nothing of the change stored. The core's services are used as
// servers use them, each server a PgStore of its own on the database.
import { randomBytes, randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConnectionService, proxyPasswordAccount } from '../../src/main/core/connections/service'
import { SECRETS_NEED_A_KEY } from '../../src/main/core/secrets/choice'
import { SecretUnreadableError } from '../../src/main/core/secrets/sealing'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { Store } from '../../src/main/core/store/interface/store'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { chooseSecrets, encryptedDatabaseSecrets } from '../../src/main/core/store/sealed-secrets'
import { webhookSecretAccount, WebhookService } from '../../src/main/core/webhooks/service'
import { webhookUrlAccount } from '../../src/main/core/webhooks/url-query'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { writeKeyFile } from '../support/secret-key-files'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-pg-secrets-')
let database: TestDatabase
let dir: string
const stores: Store[] = []

beforeEach(async () => {
  database = await freshDatabase()
  dir = newDir()
})

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close()
  await database.drop()
})

/** A server on the database: its own store. */
async function server(): Promise<Store> {
  const store = await openPgStore(database.url)
  stores.push(store)
  return store
}

/** The secrets of a server started with `env`, as serve and the CLI choose them. */
const secretsOf = (store: Store, env: NodeJS.ProcessEnv): SecretStore => chooseSecrets(database.url, env)(store)

const withKey = (path: string): NodeJS.ProcessEnv => ({ EVENTWATCH_SECRET_KEY_FILE: path })

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** Every row of every table of the database, as PostgreSQL renders it in text (bytea as hex). */
async function everyRow(): Promise<string> {
  const tables = await query<{ name: string }>("SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public'")
  const rows = await Promise.all(tables.map(({ name }) => query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`)))
  return rows.flat().map((r) => r.row).join('\n')
}

/** `secret` as it could sit in a row: its text, and the hex of its bytes (bytea), any case. */
function expectNowhere(text: string, secret: string): void {
  const lower = text.toLowerCase()
  expect(lower).not.toContain(secret.toLowerCase())
  expect(lower).not.toContain(Buffer.from(secret).toString('hex'))
  expect(lower).not.toContain(Buffer.from(secret).toString('base64').toLowerCase())
}

const tenant = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  baseUrl: 'https://api.example.test',
  authUrl: 'https://auth.example.test',
  platformId: 'p',
  tenantId: 't',
  clientId: 'c',
  ...over
})

describe('secrets sealed in a PostgreSQL database under a key file', () => {
  it('keeps, replaces and removes a secret, and a second server with the same key file reads it', async () => {
    const key = writeKeyFile(dir)
    const [a, b] = [await server(), await server()]
    const secrets = secretsOf(a, withKey(key))
    expect(await secrets.read('conn-1')).toBeNull()
    await secrets.save('conn-1', 'first ünïcode secret')
    expect(await secrets.read('conn-1')).toBe('first ünïcode secret')
    await secrets.save('conn-1', 'second')
    expect(await secretsOf(b, withKey(key)).read('conn-1')).toBe('second')
    expect(await secrets.remove('conn-1')).toBe(true)
    expect(await secrets.remove('conn-1')).toBe(false)
    expect(await secretsOf(b, withKey(key)).read('conn-1')).toBeNull()
  })

  it('writes a fresh 12-byte IV each time: the same value twice is two ciphertexts', async () => {
    const store = await server()
    const secrets = secretsOf(store, withKey(writeKeyFile(dir)))
    await secrets.save('a', 'same value')
    const first = await store.read.secrets.get('eventwatch', 'a')
    await secrets.save('a', 'same value')
    const second = await store.read.secrets.get('eventwatch', 'a')
    expect(first?.iv).toHaveLength(12)
    expect(first?.authTag).toHaveLength(16)
    expect(second?.iv.equals(first?.iv ?? Buffer.alloc(0))).toBe(false)
    expect(second?.ciphertext.equals(first?.ciphertext ?? Buffer.alloc(0))).toBe(false)
  })

  it('puts no secret of a connection or a webhook in clear in any row of any table', async () => {
    const store = await server()
    const secrets = secretsOf(store, withKey(writeKeyFile(dir)))
    const secret = `S3cr3t-${randomUUID()}`
    const connection = await new ConnectionService(store, secrets).save(
      tenant('Tenant A', { proxyUrl: `http://squid:${secret}-proxy@proxy.example.test:3128` }),
      secret
    )
    const hook = await new WebhookService(store, secrets).add({ name: 'On call', url: `https://hooks.example.test/x?sig=${secret}-sig`, format: 'json' }, `${secret}-signing`)
    expect(connection).toMatchObject({ secretStored: true, proxyPasswordStored: true })
    expect(hook.signed).toBe(true)
    expect(await store.read.secrets.count('eventwatch')).toBe(4)

    const rows = await everyRow()
    expect(rows).toContain('Tenant A')
    for (const value of [secret, `${secret}-proxy`, `sig=${secret}-sig`, `${secret}-signing`]) expectNowhere(rows, value)
    expect(await new ConnectionService(store, secrets).credentialsFor(connection.id, {})).toEqual({ clientId: 'c', clientSecret: secret })
    expect(await secrets.read(proxyPasswordAccount(connection.id))).toBe(`${secret}-proxy`)
    expect(await secrets.read(webhookSecretAccount(hook.id))).toBe(`${secret}-signing`)
    expect(await secrets.read(webhookUrlAccount(hook.id))).toBe(`?sig=${secret}-sig`)
  })

  it('says a row was sealed under another key, naming the row and never the value', async () => {
    const store = await server()
    await secretsOf(store, withKey(writeKeyFile(dir, 'a.key'))).save('conn-1', 'the value')
    const reading = secretsOf(await server(), withKey(writeKeyFile(dir, 'b.key'))).read('conn-1')
    await expect(reading).rejects.toThrow(SecretUnreadableError)
    await expect(reading).rejects.toThrow(/^the secret "conn-1" of eventwatch cannot be decrypted: it was encrypted under another key \(key id [0-9a-f]{16}, this server's is [0-9a-f]{16}\)/)
    await expect(reading).rejects.not.toThrow(/the value/)
  })

  it('refuses an altered ciphertext, tag or IV, and a ciphertext moved to another row', async () => {
    const store = await server()
    const key = randomBytes(32)
    const secrets = encryptedDatabaseSecrets(store, key)
    await secrets.save('conn-1', 'secret one')
    await secrets.save('conn-2', 'secret two')
    const altered = /the secret "conn-\d" of eventwatch cannot be decrypted: its row in the database was altered or moved/
    // As someone with write access to the database would: in SQL, around the store.
    for (const [what, change] of [
      ['ciphertext', "ciphertext = set_byte(ciphertext, 0, get_byte(ciphertext, 0) # 1)"],
      ['tag', 'auth_tag = set_byte(auth_tag, 15, get_byte(auth_tag, 15) # 1)'],
      ['iv', 'iv = set_byte(iv, 11, get_byte(iv, 11) # 1)']
    ] as const) {
      await secrets.save('conn-1', 'secret one')
      await query(`UPDATE encrypted_secrets SET ${change} WHERE account = 'conn-1'`)
      await expect(secrets.read('conn-1'), what).rejects.toThrow(altered)
    }
    await secrets.save('conn-1', 'secret one')
    await query(
      "UPDATE encrypted_secrets t SET key_id = s.key_id, iv = s.iv, ciphertext = s.ciphertext, auth_tag = s.auth_tag FROM encrypted_secrets s WHERE t.account = 'conn-2' AND s.account = 'conn-1'"
    )
    await expect(secrets.read('conn-2')).rejects.toThrow(altered)
    expect(await secrets.read('conn-1')).toBe('secret one')
  })

  it('a connection whose secret another key sealed is listed as having one; saving it again is the fix, and removing takes its rows', async () => {
    const store = await server()
    const first = new ConnectionService(store, secretsOf(store, withKey(writeKeyFile(dir, 'a.key'))))
    const view = await first.save(tenant('Tenant A', { proxyUrl: 'http://squid:pw@proxy.example.test:3128' }), 'client-secret-1')
    const elsewhere = new ConnectionService(store, secretsOf(store, withKey(writeKeyFile(dir, 'b.key'))))
    await expect(elsewhere.credentialsFor(view.id, {})).rejects.toThrow(/cannot be decrypted: it was encrypted under another key/)
    expect(await elsewhere.get(view.id)).toMatchObject({ secretStored: true, proxyPasswordStored: true })
    await elsewhere.save(tenant('Tenant A'), 'client-secret-2', view.id)
    expect(await elsewhere.credentialsFor(view.id, {})).toEqual({ clientId: 'c', clientSecret: 'client-secret-2' })
    expect(await elsewhere.remove(view.id)).toBe(true)
    expect(await store.read.secrets.count('eventwatch')).toBe(0)
  })
})

describe('a PostgreSQL database without the key file', () => {
  /** What the database holds: connections, webhooks, secret rows. */
  const contents = async () => ({
    connections: (await query<{ name: string }>('SELECT name FROM connections ORDER BY name')).map((r) => r.name),
    webhooks: (await query<{ name: string }>('SELECT name FROM webhooks ORDER BY name')).map((r) => r.name),
    secrets: (await query<{ n: number }>('SELECT count(*)::int AS n FROM encrypted_secrets'))[0]?.n
  })

  it('refuses a connection with a secret in the one sentence, and stores nothing of it', async () => {
    const store = await server()
    const connections = new ConnectionService(store, secretsOf(store, {}))
    const adding = connections.save(tenant('Tenant A'), 'client-secret-1')
    await expect(adding).rejects.toMatchObject({ kind: 'configuration', message: SECRETS_NEED_A_KEY })
    // A proxy password alone is a secret too: refused before the row, not after it.
    await expect(connections.save(tenant('Tenant B', { proxyUrl: 'http://squid:pw@proxy.example.test:3128' }))).rejects.toThrow(SECRETS_NEED_A_KEY)
    expect(await contents()).toEqual({ connections: [], webhooks: [], secrets: 0 })
  })

  it('leaves a connection as it was when a new secret for it is refused', async () => {
    const store = await server()
    const keyed = new ConnectionService(store, secretsOf(store, withKey(writeKeyFile(dir))))
    const view = await keyed.save(tenant('Tenant A'), 'client-secret-1')
    const keyless = new ConnectionService(store, secretsOf(store, {}))
    await expect(keyless.save(tenant('Tenant A', { clientId: 'changed' }), 'client-secret-2', view.id)).rejects.toThrow(SECRETS_NEED_A_KEY)
    await expect(keyless.save(tenant('Tenant A', { clientId: 'changed', proxyUrl: 'http://u:pw@proxy.example.test:1' }), undefined, view.id)).rejects.toThrow(
      SECRETS_NEED_A_KEY
    )
    expect(await keyed.credentialsFor(view.id, {})).toEqual({ clientId: 'c', clientSecret: 'client-secret-1' })
    expect(await contents()).toEqual({ connections: ['Tenant A'], webhooks: [], secrets: 1 })
  })

  it('refuses a signed webhook, and one whose URL carries a secret query, storing nothing', async () => {
    const store = await server()
    const webhooks = new WebhookService(store, secretsOf(store, {}))
    await expect(webhooks.add({ name: 'Signed', url: 'https://hooks.example.test/x', format: 'json' }, 'signing')).rejects.toMatchObject({
      kind: 'configuration',
      message: SECRETS_NEED_A_KEY
    })
    await expect(webhooks.add({ name: 'Workflows', url: 'https://hooks.example.test/x?sig=abc', format: 'teams' })).rejects.toThrow(SECRETS_NEED_A_KEY)
    expect(await contents()).toEqual({ connections: [], webhooks: [], secrets: 0 })
    // What needs no secret is stored.
    expect((await webhooks.add({ name: 'Plain', url: 'https://hooks.example.test/x', format: 'json' })).signed).toBe(false)
  })

  it('lists a secret a keyed server stored, says it cannot read it without the key, and removes it with its connection', async () => {
    const store = await server()
    const keyed = new ConnectionService(store, secretsOf(store, withKey(writeKeyFile(dir))))
    const view = await keyed.save(tenant('Tenant A'), 'client-secret-1')
    const keyless = new ConnectionService(store, secretsOf(await server(), {}))
    expect(await keyless.get(view.id)).toMatchObject({ secretStored: true })
    await expect(keyless.credentialsFor(view.id, {})).rejects.toThrow(
      `the secret "${view.id}" of eventwatch cannot be decrypted: EVENTWATCH_SECRET_KEY_FILE is not set on this server; set it to the key file every server shares`
    )
    expect(await keyless.remove(view.id)).toBe(true)
    expect(await contents()).toEqual({ connections: [], webhooks: [], secrets: 0 })
  })
})
