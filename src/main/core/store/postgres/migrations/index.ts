// Every PostgreSQL migration in order. Add a file, add it here; never edit one that has shipped.
import { baseline } from './024-baseline'
import { encryptedSecrets } from './025-encrypted-secrets'
import type { PgMigration } from './types'

export const pgMigrations: readonly PgMigration[] = [baseline, encryptedSecrets]
