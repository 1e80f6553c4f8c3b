// Secrets kept in the database, sealed (issue 26; docs/secrets.md): the SecretStore of servers that
// share a database, where the OS keychain of one host cannot serve. Each value is sealed by
// secrets/sealing.ts (AES-256-GCM, a fresh IV per write, the row's identity authenticated) and kept
// on the Store's `secrets` concern, which only ever sees sealed bytes — a PostgreSQL store's (a
// SQLite cache keeps the keychain). `chooseSecrets` is where the configuration picks the keychain,
// this table, or a refusal.
import { isSharedDatabase, SECRETS_NEED_A_KEY } from '../secrets/choice'
import { readSecretKeyFile, SECRET_KEY_FILE_ENV, secretKeyFileOf } from '../secrets/key-file'
import { KEYCHAIN_SERVICE, osKeychain, SecretKeyMissingError, type SecretStore } from '../secrets/keychain'
import { checkSecretKey, openSecret, rowName, sealSecret, SecretUnreadableError } from '../secrets/sealing'
import type { Store } from './interface/store'

export interface SealedSecretsOptions {
  service?: string
  clock?: () => number
}

/**
 * The SecretStore on `store`'s `secrets` concern, under `key` (exactly 32 bytes). Each call is one
 * unit of work of its own: like the keychain, it is written before or after a caller's unit, never
 * inside one.
 */
export function encryptedDatabaseSecrets(store: Store, key: Buffer, options: SealedSecretsOptions = {}): SecretStore {
  checkSecretKey(key)
  const service = options.service ?? KEYCHAIN_SERVICE
  const clock = options.clock ?? Date.now
  return {
    async save(account, secret) {
      const sealed = sealSecret(key, { service, account }, secret)
      await store.withTransaction((tx) => tx.secrets.put(service, account, sealed, clock()))
    },
    async read(account) {
      const sealed = await store.read.secrets.get(service, account)
      return sealed ? openSecret(key, { service, account }, sealed) : null
    },
    remove: (account) => store.withTransaction((tx) => tx.secrets.remove(service, account))
  }
}

/**
 * The SecretStore of a database that may keep no secret (a `postgres://` one without a key file):
 * saving is refused with `refusal`; a row already there is kept but cannot be read without the key
 * (SecretUnreadableError, as for another key: a signed webhook is not sent unsigned for it); removing
 * works (it needs no key).
 */
export function keylessDatabaseSecrets(store: Store, refusal: string, service: string = KEYCHAIN_SERVICE): SecretStore {
  return {
    save: () => Promise.reject(new SecretKeyMissingError(refusal)),
    async read(account) {
      if (!(await store.read.secrets.get(service, account))) return null
      throw new SecretUnreadableError(
        `${rowName({ service, account })} cannot be decrypted: ${SECRET_KEY_FILE_ENV} is not set on this server; set it to the key file every server shares`
      )
    },
    remove: (account) => store.withTransaction((tx) => tx.secrets.remove(service, account))
  }
}

/** The secret store of the connections and webhooks of a core on `store`, once it is open. */
export type SecretsOn = (store: Store) => SecretStore

/**
 * Where the connections' and webhooks' secrets of `db` are kept (docs/secrets.md):
 * - a SQLite file: the OS keychain, key file or not (no secret ever touches SQLite);
 * - a `postgres://` database with a key file (EVENTWATCH_SECRET_KEY_FILE): sealed in the database;
 * - a `postgres://` database without one: nowhere, saving is refused (`SECRETS_NEED_A_KEY`).
 * The key file is read now, so a bad one (missing, the wrong size, open to others) stops the
 * command before anything starts, in words (SecretKeyFileError).
 */
export function chooseSecrets(db: string, env: NodeJS.ProcessEnv = process.env, keychain: () => SecretStore = osKeychain): SecretsOn {
  if (!isSharedDatabase(db)) return () => keychain()
  const keyFile = secretKeyFileOf(env)
  if (!keyFile) return (store) => keylessDatabaseSecrets(store, SECRETS_NEED_A_KEY)
  const key = readSecretKeyFile(keyFile)
  return (store) => encryptedDatabaseSecrets(store, key)
}
