// Version 25: nothing on SQLite. Step 025 is PostgreSQL's `encrypted_secrets` table (secrets on a
// shared database, store/postgres/migrations/025-encrypted-secrets.ts); a SQLite cache — a desk, a
// single team server, the CLI on a file — keeps every secret in the OS keychain, as DESIGN.md says:
// no secret ever touches SQLite. The number is taken on both backends so their versions stay one
// sequence. (An earlier draft made the table here too; it never shipped, so there is nothing to drop.)
import type { Migration } from './types'

export const encryptedSecretsOnPostgresOnly: Migration = {
  version: 25,
  name: 'encrypted-secrets-on-postgres-only',
  up: () => undefined
}
