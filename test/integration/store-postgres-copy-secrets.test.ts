// `store copy` and the secrets a SQLite cache keeps in the OS keychain (docs/secrets.md): with a key
// file each one of the copied connections and webhooks is sealed into the database in the copy's
// transaction, and opens there under that key; what the keychain lacks is named; a keychain that
// cannot be read stops the copy before anything is written; a database that holds sealed secrets
// is not empty. The keychain is the real OS keychain (run under /work/notes/kr.sh).
import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { proxyPasswordAccount, webhookSecretAccount, webhookUrlAccount } from '../../src/main/core/secrets/accounts'
import { KEYCHAIN_SERVICE, osKeychain, type SecretStore } from '../../src/main/core/secrets/keychain'
import { sealSecret } from '../../src/main/core/secrets/sealing'
import { copyCacheToPostgres } from '../../src/main/core/store/copy/copy-cache'
import { COPIED_TABLES } from '../../src/main/core/store/copy/copy-plan'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { encryptedDatabaseSecrets } from '../../src/main/core/store/sealed-secrets'
import { openSqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { connectionSettings, T0 } from '../contract/store/fixtures'
import { Cleanups, testKeychain } from '../support/app-core'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { countsIn } from '../support/table-rows'
import { tempDirs } from '../support/temp-dirs'

const tempDir = tempDirs('eventwatch-store-copy-secrets-')
const cleanups = new Cleanups()
const TABLES = [...COPIED_TABLES.map((table) => table.name), 'encrypted_secrets']
let target: TestDatabase
let keychain: SecretStore
const key = randomBytes(32)

beforeEach(async () => {
  target = await freshDatabase()
  keychain = testKeychain(cleanups)
})
afterEach(async () => {
  await cleanups.runAll()
  await target.drop()
})

/** A team server's cache: tenant A (a client secret, a proxy with a user and its password), tenant
 *  B (its secret lost from the keychain), the demo (no secret kept), a webhook signed and with a
 *  secret query; the secrets in `keychain`, as the services keep them. */
async function teamCache(): Promise<string> {
  const file = join(tempDir(), 'cache.db')
  const store = openSqliteStore(file)
  await store.withTransaction(async (tx) => {
    await tx.connections.insert(connectionSettings('A', { proxyUrl: 'http://noc@proxy.example:3128' }), 'conn-a', T0)
    await tx.connections.insert(connectionSettings('B'), 'conn-b', T0)
    await tx.connections.upsert({ id: 'demo', name: 'Demo data', baseUrl: 'http://127.0.0.1:1', authUrl: 'http://127.0.0.1:1', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: true }, T0)
    await tx.webhooks.add({ name: 'On call', url: 'https://hooks.example/on-call', format: 'json' }, { signed: true, queryInKeychain: true }, 'hook-1', T0)
  })
  await store.close()
  await keychain.save('conn-a', 'secret-of-a')
  await keychain.save(proxyPasswordAccount('conn-a'), 'proxy-password-of-a')
  await keychain.save(webhookSecretAccount('hook-1'), 'signing-secret')
  await keychain.save(webhookUrlAccount('hook-1'), '?sig=query-secret')
  return file
}

it('seals each secret of the copied connections and webhooks, which opens in the database under the key, and names what the keychain lacked', async () => {
  const result = await copyCacheToPostgres(await teamCache(), target.url, { secrets: { keychain, key } })
  expect(result.secrets).toEqual({ sealed: 4, notSealed: ['the client secret of connection "B"'] })
  const store = await openPgStore(target.url)
  try {
    const sealed = encryptedDatabaseSecrets(store, key)
    expect(await sealed.read('conn-a')).toBe('secret-of-a')
    expect(await sealed.read(proxyPasswordAccount('conn-a'))).toBe('proxy-password-of-a')
    expect(await sealed.read(webhookSecretAccount('hook-1'))).toBe('signing-secret')
    expect(await sealed.read(webhookUrlAccount('hook-1'))).toBe('?sig=query-secret')
    expect(await sealed.read('conn-b')).toBeNull()
    expect(await store.read.secrets.count(KEYCHAIN_SERVICE)).toBe(4)
    // Under another key nothing opens: they were sealed, not copied in clear.
    await expect(encryptedDatabaseSecrets(store, randomBytes(32)).read('conn-a')).rejects.toThrow(/encrypted under another key/)
  } finally {
    await store.close()
  }
})

it('names every secret that stays in the keychain when no key is given, and seals none', async () => {
  const result = await copyCacheToPostgres(await teamCache(), target.url)
  expect(result.secrets).toEqual({
    sealed: 0,
    notSealed: [
      'the client secret of connection "A"',
      'the proxy password of connection "A" (if it has one)',
      'the client secret of connection "B"',
      'the signing secret of webhook "On call"',
      'the URL query of webhook "On call"'
    ]
  })
  expect((await countsIn(target.url, ['encrypted_secrets'])).encrypted_secrets).toBe(0)
})

it('copies nothing when the keychain cannot be read, and says so', async () => {
  const file = await teamCache()
  const unreadable = osKeychain(`eventwatch-test-${randomUUID()}`, () => Promise.reject(new Error('Cannot find module keytar')))
  await expect(copyCacheToPostgres(file, target.url, { secrets: { keychain: unreadable, key } })).rejects.toThrow(
    /^the client secret of connection "A" cannot be read from this machine's keychain \(the keychain module \(keytar\) is not installed.*\): run store copy where the keychain is unlocked, or without EVENTWATCH_SECRET_KEY_FILE to copy the data alone; nothing was copied$/
  )
  expect(Object.values(await countsIn(target.url, TABLES)).every((n) => n === 0)).toBe(true)
})

it('refuses a database that holds sealed secrets already', async () => {
  const store = await openPgStore(target.url)
  await store.withTransaction((tx) => tx.secrets.put(KEYCHAIN_SERVICE, 'conn-x', sealSecret(key, { service: KEYCHAIN_SERVICE, account: 'conn-x' }, 'x'), T0))
  await store.close()
  await expect(copyCacheToPostgres(await teamCache(), target.url, { secrets: { keychain, key } })).rejects.toThrow(/is not empty \(it holds rows of encrypted_secrets\)/)
})
