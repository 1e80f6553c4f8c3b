// The rule for a database several servers share (issue 26; docs/secrets.md): a `postgres://`
// database keeps a secret only encrypted under a key file, never in a keychain of one host. The
// choice itself is made where the servers and the CLI start (store/sealed-secrets.ts,
// `chooseSecrets`); the PostgreSQL store calls `secretRefusal` with its URL.
import { SECRET_KEY_FILE_ENV, secretKeyFileOf } from './key-file'

/** A database several servers share: a `postgres://` (or `postgresql://`) URL, not a file. */
export function isSharedDatabase(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db.trim())
}

/**
 * Why `db` may keep no secret with this environment, in one sentence; null when it may. The
 * sentence never repeats the URL (it may carry a password).
 */
export function secretRefusal(db: string, env: NodeJS.ProcessEnv): string | null {
  if (!isSharedDatabase(db) || secretKeyFileOf(env)) return null
  return (
    `a postgres:// database keeps secrets only encrypted under a key every server shares: set ${SECRET_KEY_FILE_ENV} ` +
    'to a file of 32 random bytes (openssl rand -out FILE 32), the same on every server'
  )
}
