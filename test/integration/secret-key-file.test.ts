// Where secrets are kept (issue 26; docs/secrets.md), without a database server: the key file
// EVENTWATCH_SECRET_KEY_FILE names (32 bytes, mode 0600, every problem said with its fix), the
// rule (a postgres:// database seals them under that key, or refuses them; a SQLite cache keeps the
// OS keychain, key file or not), and SQLite's refusal of the secrets concern on a real cache file.
// The sealed rows on a real PostgreSQL are store-postgres-secrets.test.ts's.
import Database from 'better-sqlite3'
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConnectionService, proxyPasswordAccount } from '../../src/main/core/connections/service'
import { isSharedDatabase, keyFileUnused, secretRefusal } from '../../src/main/core/secrets/choice'
import { readSecretKeyFile, SecretKeyFileError } from '../../src/main/core/secrets/key-file'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import { latestSchema } from '../../src/main/core/store/migrate'
import { chooseSecrets } from '../../src/main/core/store/sealed-secrets'
import { SQLITE_KEEPS_NO_SECRETS } from '../../src/main/core/store/sqlite/secret-table'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { writeKeyFile } from '../support/secret-key-files'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-secret-key-file-')
let dir: string
let file: string
let store: SqliteStore

beforeEach(() => {
  dir = newDir()
  file = join(dir, 'cache.db')
  store = openSqliteStore(file)
})

afterEach(async () => {
  await store.close()
})

const keyFile = (name?: string, bytes?: Buffer, mode?: number): string => writeKeyFile(dir, name, bytes, mode)

/** A keychain in memory, standing in for the OS one: what it was given is all it holds. */
function memoryKeychain(): SecretStore & { held: Map<string, string> } {
  const held = new Map<string, string>()
  return {
    held,
    save: async (account, secret) => void held.set(account, secret),
    read: async (account) => held.get(account) ?? null,
    remove: async (account) => held.delete(account)
  }
}

describe('the key file', () => {
  it('is read: exactly 32 bytes, mode 0600 or 0400', () => {
    const bytes = randomBytes(32)
    expect(readSecretKeyFile(keyFile('k', bytes)).equals(bytes)).toBe(true)
    expect(readSecretKeyFile(keyFile('k4', bytes, 0o400)).equals(bytes)).toBe(true)
  })

  it('is refused when it is missing, saying how to make one', () => {
    const missing = join(dir, 'nope.key')
    expect(() => readSecretKeyFile(missing)).toThrow(SecretKeyFileError)
    expect(() => readSecretKeyFile(missing)).toThrow(
      `EVENTWATCH_SECRET_KEY_FILE (${missing}): the key file does not exist; make one with: openssl rand -out ${missing} 32 && chmod 600 ${missing}`
    )
  })

  it('is refused at 31 bytes, at 33, empty, and as hex text, with its size', () => {
    expect(() => readSecretKeyFile(keyFile('short', randomBytes(31)))).toThrow(/the key file holds 31 bytes; it must hold exactly 32 random bytes: openssl rand -out/)
    expect(() => readSecretKeyFile(keyFile('long', randomBytes(33)))).toThrow(/the key file holds more than 32 bytes; it must hold exactly 32/)
    expect(() => readSecretKeyFile(keyFile('empty', Buffer.alloc(0)))).toThrow(/the key file holds 0 bytes/)
    const hex = Buffer.from(`${randomBytes(32).toString('hex')}\n`)
    expect(() => readSecretKeyFile(keyFile('hex', hex))).toThrow(/it looks like text: the file holds the raw bytes, not hex or base64/)
  })

  it.skipIf(process.platform === 'win32')('is refused when group or others may use it (0644, 0640, 0604, 0660), with the chmod to run', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const path = keyFile(`open-${mode.toString(8)}`, randomBytes(32), mode)
      expect(() => readSecretKeyFile(path)).toThrow(
        `EVENTWATCH_SECRET_KEY_FILE (${path}): the key file is open to other users (mode 0${mode.toString(8)}), so it is refused, as ssh refuses such a key; run: chmod 600 ${path}`
      )
    }
  })
})

describe('where secrets are kept', () => {
  it('refuses a postgres:// database without a key file, in one sentence that names the variable and how to make a key, never the URL', () => {
    const url = 'postgres://eventwatch:hunter2@db.internal/eventwatch'
    const refusal = secretRefusal(url, {})
    expect(refusal).toBe(
      'a postgres:// database stores secrets only encrypted, and EVENTWATCH_SECRET_KEY_FILE is not set: make a key with ' +
        '"openssl rand -out key 32 && chmod 600 key" and set EVENTWATCH_SECRET_KEY_FILE to that file on every server'
    )
    expect(refusal).not.toContain('hunter2')
    expect(secretRefusal('postgresql://db.internal/eventwatch', { EVENTWATCH_SECRET_KEY_FILE: '' })).toBe(refusal)
    expect(secretRefusal(' POSTGRES://db/x', {})).toBe(refusal)
    expect(secretRefusal(url, { EVENTWATCH_SECRET_KEY_FILE: '/etc/eventwatch/secret.key' })).toBeNull()
    expect(secretRefusal('/var/lib/eventwatch/cache.db', {})).toBeNull()
    expect(secretRefusal('postgres.db', {})).toBeNull()
    expect(isSharedDatabase('postgres://x/y')).toBe(true)
    expect(isSharedDatabase('./postgres://x')).toBe(false)
  })

  it('says a key file set for a SQLite cache is unused, in one sentence, and nothing otherwise', () => {
    const env = { EVENTWATCH_SECRET_KEY_FILE: '/etc/eventwatch/secret.key' }
    expect(keyFileUnused(file, env)).toBe(
      'EVENTWATCH_SECRET_KEY_FILE is used only with a postgres:// database: with a SQLite cache the OS keychain keeps the secrets, and the key file is not read'
    )
    expect(keyFileUnused(file, {})).toBeNull()
    expect(keyFileUnused('postgres://db/x', env)).toBeNull()
  })

  it('keeps a SQLite cache on the keychain with a key file set, and never reads the file', async () => {
    const keychain = memoryKeychain()
    // Not even a bad key file is read for SQLite: it is not used.
    for (const keyPath of [keyFile(), join(dir, 'missing.key'), keyFile('open', randomBytes(32), 0o644)]) {
      const chosen = chooseSecrets(file, { EVENTWATCH_SECRET_KEY_FILE: keyPath }, () => keychain)(store)
      await chosen.save('conn-1', 'in the keychain')
      expect(keychain.held.get('conn-1')).toBe('in the keychain')
    }
  })

  it('a connection saved on a SQLite cache with a key file puts its secrets in the keychain and no byte of them in the file', async () => {
    const keychain = memoryKeychain()
    const secrets = chooseSecrets(file, { EVENTWATCH_SECRET_KEY_FILE: keyFile() }, () => keychain)(store)
    const secret = `S3cr3t-${randomUUID()}`
    const view = await new ConnectionService(store, secrets).save(
      {
        name: 'Tenant A',
        baseUrl: 'https://api.example.test',
        authUrl: 'https://auth.example.test',
        platformId: 'p',
        tenantId: 't',
        clientId: 'c',
        proxyUrl: `http://squid:${secret}-proxy@proxy.example.test:3128`
      },
      secret
    )
    expect(keychain.held).toEqual(
      new Map([
        [view.id, secret],
        [proxyPasswordAccount(view.id), `${secret}-proxy`]
      ])
    )
    for (const path of [file, `${file}-wal`].filter(existsSync)) expect(readFileSync(path).includes(Buffer.from(secret))).toBe(false)
  })

  it('stops at a bad key file for a postgres:// database before anything starts', () => {
    if (process.platform !== 'win32') {
      expect(() => chooseSecrets('postgres://db/x', { EVENTWATCH_SECRET_KEY_FILE: keyFile('open', randomBytes(32), 0o644) })).toThrow(SecretKeyFileError)
    }
    expect(() => chooseSecrets('postgres://db/x', { EVENTWATCH_SECRET_KEY_FILE: join(dir, 'missing') })).toThrow('does not exist')
  })
})

describe('a SQLite cache', () => {
  it('refuses the secrets concern in one sentence, read or in a unit, and writes nothing', async () => {
    await expect(store.read.secrets.get('eventwatch', 'conn-1')).rejects.toThrow(SQLITE_KEEPS_NO_SECRETS)
    await expect(store.read.secrets.count('eventwatch')).rejects.toThrow(SQLITE_KEEPS_NO_SECRETS)
    const sealed = { keyId: 'k', iv: Buffer.alloc(12), ciphertext: Buffer.from('x'), authTag: Buffer.alloc(16) }
    await expect(store.withTransaction((tx) => tx.secrets.put('eventwatch', 'conn-1', sealed, 1))).rejects.toThrow(SQLITE_KEEPS_NO_SECRETS)
    await expect(store.withTransaction((tx) => tx.secrets.remove('eventwatch', 'conn-1'))).rejects.toThrow(SQLITE_KEEPS_NO_SECRETS)
  })

  it('is migrated past step 25 with no table for secrets', () => {
    const db = new Database(file, { readonly: true })
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(latestSchema())
      expect(latestSchema()).toBeGreaterThanOrEqual(25)
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%secret%'").all()).toEqual([])
    } finally {
      db.close()
    }
  })
})
