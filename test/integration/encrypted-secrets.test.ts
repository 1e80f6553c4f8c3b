// Secrets on a shared database (issue 26): the encrypted SecretStore on a real SQLite file, its key
// file, and the rule for a postgres:// database without one. The value is sealed with AES-256-GCM
// under the key file's 32 bytes, bound to its row; it is in no byte of the file or its -wal.
import { randomBytes, randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConnectionService, proxyPasswordAccount } from '../../src/main/core/connections/service'
import { isSharedDatabase, secretRefusal } from '../../src/main/core/secrets/choice'
import { readSecretKeyFile, SecretKeyFileError } from '../../src/main/core/secrets/key-file'
import { KeychainUnavailableError, SecretKeyMissingError, type SecretStore } from '../../src/main/core/secrets/keychain'
import { SecretUnreadableError } from '../../src/main/core/secrets/sealing'
import { chooseSecrets, encryptedDatabaseSecrets, keylessDatabaseSecrets } from '../../src/main/core/store/sealed-secrets'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'

let dir: string
let file: string
let store: SqliteStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-secrets-'))
  file = join(dir, 'cache.db')
  store = openSqliteStore(file)
})

afterEach(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const fileBytes = (): Buffer[] => [file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((f) => readFileSync(f))

/** A key file as `openssl rand -out FILE 32` and `chmod 600` leave it. */
function keyFile(name = 'secret.key', bytes: Buffer = randomBytes(32), mode = 0o600): string {
  const path = join(dir, name)
  writeFileSync(path, bytes, { mode })
  chmodSync(path, mode)
  return path
}

describe('the encrypted SecretStore', () => {
  it('keeps, replaces and removes a secret, as the keychain does', async () => {
    const secrets = encryptedDatabaseSecrets(store, randomBytes(32))
    expect(await secrets.read('conn-1')).toBeNull()
    await secrets.save('conn-1', 'first ünïcode secret')
    expect(await secrets.read('conn-1')).toBe('first ünïcode secret')
    await secrets.save('conn-1', 'second')
    expect(await secrets.read('conn-1')).toBe('second')
    expect(await secrets.remove('conn-1')).toBe(true)
    expect(await secrets.remove('conn-1')).toBe(false)
    expect(await secrets.read('conn-1')).toBeNull()
  })

  it('writes a fresh 12-byte IV each time, and the same value twice is two ciphertexts', async () => {
    const secrets = encryptedDatabaseSecrets(store, randomBytes(32))
    await secrets.save('a', 'same value')
    const first = await store.read.secrets.get('eventwatch', 'a')
    await secrets.save('a', 'same value')
    const second = await store.read.secrets.get('eventwatch', 'a')
    expect(first?.iv).toHaveLength(12)
    expect(first?.authTag).toHaveLength(16)
    expect(second?.iv.equals(first?.iv ?? Buffer.alloc(0))).toBe(false)
    expect(second?.ciphertext.equals(first?.ciphertext ?? Buffer.alloc(0))).toBe(false)
  })

  it('puts the secret in no byte of the database file or its -wal, in any encoding', async () => {
    const secret = `S3cr3t-${randomUUID()}`
    const secrets = encryptedDatabaseSecrets(store, randomBytes(32))
    await secrets.save('conn-1', secret)
    await secrets.save(proxyPasswordAccount('conn-1'), `${secret}-proxy`)
    expect(existsSync(`${file}-wal`)).toBe(true)
    const needles = [secret, `${secret}-proxy`].flatMap((s) => [Buffer.from(s, 'utf8'), Buffer.from(s, 'utf16le'), Buffer.from(Buffer.from(s).toString('base64'))])
    for (const bytes of fileBytes()) for (const needle of needles) expect(bytes.includes(needle)).toBe(false)
    expect(await secrets.read('conn-1')).toBe(secret)
  })

  it('says a row was encrypted under another key, naming the row and never the value', async () => {
    await encryptedDatabaseSecrets(store, randomBytes(32)).save('conn-1', 'the value')
    const other = encryptedDatabaseSecrets(store, randomBytes(32))
    const reading = other.read('conn-1')
    await expect(reading).rejects.toThrow(SecretUnreadableError)
    await expect(reading).rejects.toThrow(/the secret "conn-1" of eventwatch cannot be decrypted: it was encrypted under another key/)
    await expect(reading).rejects.not.toThrow(/the value/)
  })

  it('refuses a tampered ciphertext, tag or IV, and a ciphertext moved to another row', async () => {
    const key = randomBytes(32)
    const secrets = encryptedDatabaseSecrets(store, key)
    await secrets.save('conn-1', 'secret one')
    await secrets.save('conn-2', 'secret two')
    const sealed = await store.read.secrets.get('eventwatch', 'conn-1')
    if (!sealed) throw new Error('no row')
    const flip = (b: Buffer, at = 0): Buffer => Buffer.from(b.map((x, i) => (i === at ? x ^ 1 : x)))
    for (const [what, tampered] of [
      ['ciphertext', { ...sealed, ciphertext: flip(sealed.ciphertext) }],
      ['tag', { ...sealed, authTag: flip(sealed.authTag, 15) }],
      ['iv', { ...sealed, iv: flip(sealed.iv, 11) }]
    ] as const) {
      await store.withTransaction((tx) => tx.secrets.put('eventwatch', 'conn-1', tampered, 1))
      await expect(secrets.read('conn-1'), what).rejects.toThrow(/the secret "conn-1" of eventwatch cannot be decrypted: its row in the database was altered or moved/)
    }
    // conn-1's untouched sealed value, copied into conn-2's row (its AAD is conn-1's identity).
    await store.withTransaction((tx) => tx.secrets.put('eventwatch', 'conn-2', sealed, 1))
    await expect(secrets.read('conn-2')).rejects.toThrow(/the secret "conn-2" of eventwatch cannot be decrypted: its row in the database was altered or moved/)
    // The same under another service: the service is part of the row's identity too.
    await store.withTransaction((tx) => tx.secrets.put('eventwatch-other', 'conn-1', sealed, 1))
    await expect(encryptedDatabaseSecrets(store, key, { service: 'eventwatch-other' }).read('conn-1')).rejects.toThrow(SecretUnreadableError)
  })

  it('takes only a key of 32 bytes', () => {
    expect(() => encryptedDatabaseSecrets(store, randomBytes(31))).toThrow('exactly 32 bytes')
  })
})

describe('the key file', () => {
  it('is read: exactly 32 bytes, mode 0600', () => {
    const bytes = randomBytes(32)
    expect(readSecretKeyFile(keyFile('k', bytes)).equals(bytes)).toBe(true)
    expect(readSecretKeyFile(keyFile('k4', bytes, 0o400)).equals(bytes)).toBe(true)
  })

  it('is refused when it is missing, saying how to make one', () => {
    const missing = join(dir, 'nope.key')
    expect(() => readSecretKeyFile(missing)).toThrow(SecretKeyFileError)
    expect(() => readSecretKeyFile(missing)).toThrow(`EVENTWATCH_SECRET_KEY_FILE (${missing}): the key file does not exist; make one with: openssl rand -out ${missing} 32 && chmod 600 ${missing}`)
  })

  it('is refused at 31 bytes, at 33, and as hex text, with its size', () => {
    expect(() => readSecretKeyFile(keyFile('short', randomBytes(31)))).toThrow(/the key file holds 31 bytes; it must hold exactly 32 random bytes: openssl rand -out/)
    expect(() => readSecretKeyFile(keyFile('long', randomBytes(33)))).toThrow(/the key file holds more than 32 bytes; it must hold exactly 32/)
    expect(() => readSecretKeyFile(keyFile('empty', Buffer.alloc(0)))).toThrow(/the key file holds 0 bytes/)
    const hex = Buffer.from(`${randomBytes(32).toString('hex')}\n`)
    expect(() => readSecretKeyFile(keyFile('hex', hex))).toThrow(/it looks like text: the file holds the raw bytes, not hex or base64/)
  })

  it.skipIf(process.platform === 'win32')('is refused when group or others may read it (0644, 0640, 0604), with the chmod to run', () => {
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      const path = keyFile(`open-${mode.toString(8)}`, randomBytes(32), mode)
      expect(() => readSecretKeyFile(path)).toThrow(
        `EVENTWATCH_SECRET_KEY_FILE (${path}): the key file is open to other users (mode 0${mode.toString(8)}), so it is refused, as ssh refuses such a key; run: chmod 600 ${path}`
      )
    }
  })
})

describe('where secrets are kept', () => {
  const keychain: SecretStore = { save: async () => undefined, read: async () => 'from the keychain', remove: async () => false }

  it('refuses a postgres:// database without a key file, in one sentence that does not repeat the URL', () => {
    const url = 'postgres://eventwatch:hunter2@db.internal/eventwatch'
    const refusal = secretRefusal(url, {})
    expect(refusal).toBe(
      'a postgres:// database keeps secrets only encrypted under a key every server shares: set EVENTWATCH_SECRET_KEY_FILE to a file of 32 random bytes (openssl rand -out FILE 32), the same on every server'
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

  it('chooses the keychain for a SQLite file without a key file, and the encrypted table with one', async () => {
    expect(await chooseSecrets(file, {}, () => keychain)(store).read('x')).toBe('from the keychain')
    const path = keyFile()
    const chosen = chooseSecrets(file, { EVENTWATCH_SECRET_KEY_FILE: path }, () => keychain)(store)
    await chosen.save('conn-1', 'kept encrypted')
    expect(await chosen.read('conn-1')).toBe('kept encrypted')
    expect(await store.read.secrets.count('eventwatch')).toBe(1)
    // Another server with the same key file reads it.
    expect(await encryptedDatabaseSecrets(store, readSecretKeyFile(path)).read('conn-1')).toBe('kept encrypted')
  })

  it('stops at a bad key file before anything starts', () => {
    const open = keyFile('open', randomBytes(32), 0o644)
    if (process.platform !== 'win32') {
      expect(() => chooseSecrets(file, { EVENTWATCH_SECRET_KEY_FILE: open })).toThrow(SecretKeyFileError)
    }
    expect(() => chooseSecrets('postgres://db/x', { EVENTWATCH_SECRET_KEY_FILE: join(dir, 'missing') })).toThrow('does not exist')
  })

  it('on a postgres:// database without a key file: saving is refused in that sentence, removing works', async () => {
    const refusal = secretRefusal('postgres://db/x', {}) ?? ''
    const keyless = chooseSecrets('postgres://db/x', {}, () => keychain)(store)
    const saving = keyless.save('conn-1', 'value')
    await expect(saving).rejects.toThrow(SecretKeyMissingError)
    await expect(saving).rejects.toThrow(KeychainUnavailableError)
    await expect(saving).rejects.toThrow(refusal)
    expect(await keyless.read('conn-1')).toBeNull()
    await encryptedDatabaseSecrets(store, randomBytes(32)).save('conn-1', 'value')
    await expect(keyless.read('conn-1')).rejects.toThrow(`the secret "conn-1" of eventwatch is encrypted in the database, and ${refusal}`)
    expect(await keylessDatabaseSecrets(store, refusal).remove('conn-1')).toBe(true)
    expect(await store.read.secrets.count('eventwatch')).toBe(0)
  })

  it('the connections keep their client secret and proxy password there, and a wrong key is said, not "no secret"', async () => {
    const key = randomBytes(32)
    const service = new ConnectionService(store, encryptedDatabaseSecrets(store, key))
    const settings = {
      name: 'Tenant A',
      baseUrl: 'https://api.example.test',
      authUrl: 'https://auth.example.test',
      platformId: 'p',
      tenantId: 't',
      clientId: 'c'
    }
    const view = await service.save(
      {
        name: 'Tenant A',
        baseUrl: 'https://api.example.test',
        authUrl: 'https://auth.example.test',
        platformId: 'p',
        tenantId: 't',
        clientId: 'c',
        proxyUrl: 'http://squid:proxy-pass-1@proxy.example.test:3128'
      },
      'client-secret-1'
    )
    expect(view).toMatchObject({ secretStored: true, proxyPasswordStored: true })
    expect(await service.credentialsFor(view.id)).toEqual({ clientId: 'c', clientSecret: 'client-secret-1' })
    expect(await store.read.secrets.count('eventwatch')).toBe(2)
    for (const bytes of fileBytes()) {
      expect(bytes.includes(Buffer.from('client-secret-1'))).toBe(false)
      expect(bytes.includes(Buffer.from('proxy-pass-1'))).toBe(false)
    }

    const elsewhere = new ConnectionService(store, encryptedDatabaseSecrets(store, randomBytes(32)))
    await expect(elsewhere.credentialsFor(view.id, {})).rejects.toThrow(/the secret "[0-9a-f-]+" of eventwatch cannot be decrypted: it was encrypted under another key/)
    expect(await elsewhere.get(view.id)).toMatchObject({ secretStored: true })
    // Saving again under this key is the fix; removing works too.
    await elsewhere.save(settings, 'client-secret-2', view.id)
    expect(await elsewhere.credentialsFor(view.id, {})).toEqual({ clientId: 'c', clientSecret: 'client-secret-2' })
    expect(await elsewhere.remove(view.id)).toBe(true)
    expect(await store.read.secrets.count('eventwatch')).toBe(0)
  })
})
