// Where secrets may be kept (issue 26; docs/secrets.md). A `postgres://` database, shared by
// several servers, keeps them only sealed under the key file every server reads; a SQLite cache —
// a desk, a single team server, the CLI on a file — keeps them in the OS keychain, key file or not
// (no secret ever touches SQLite). `chooseSecrets` (store/sealed-secrets.ts) acts on these words
// where the servers and the CLI start.
import { SECRET_KEY_FILE_ENV, secretKeyFileOf } from './key-file'

/** A database several servers share: a `postgres://` (or `postgresql://`) URL, not a file. */
export function isSharedDatabase(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db.trim())
}

/** Why a `postgres://` database without a key file stores no secret, and how to give it one. */
export const SECRETS_NEED_A_KEY =
  `a postgres:// database stores secrets only encrypted, and ${SECRET_KEY_FILE_ENV} is not set: make a key with ` +
  `"openssl rand -out key 32 && chmod 600 key" and set ${SECRET_KEY_FILE_ENV} to that file on every server`

/**
 * Why `db` may keep no secret with this environment, in one sentence; null when it may. Never
 * repeats the URL (it may carry a password).
 */
export function secretRefusal(db: string, env: NodeJS.ProcessEnv): string | null {
  return isSharedDatabase(db) && !secretKeyFileOf(env) ? SECRETS_NEED_A_KEY : null
}

/** What to tell whoever set a key file for a SQLite cache, in one sentence; null otherwise. */
export function keyFileUnused(db: string, env: NodeJS.ProcessEnv): string | null {
  if (isSharedDatabase(db) || !secretKeyFileOf(env)) return null
  return `${SECRET_KEY_FILE_ENV} is used only with a postgres:// database: with a SQLite cache the OS keychain keeps the secrets, and the key file is not read`
}
