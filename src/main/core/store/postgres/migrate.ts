// Brings a PostgreSQL database up to the newest schema; the versions applied are rows of
// schema_migrations. Several servers may start together: each step runs in one transaction under
// a transaction-scoped advisory lock and reads the version again inside it, so a second server
// waits for the first and then finds that step done (as store/migrate.ts does under SQLite's
// write lock).
import type pg from 'pg'
import { StorageError } from '../../storage-faults'
import { pgMigrations } from './migrations'
import type { PgMigration } from './migrations/types'

/** The key of the advisory lock migrations hold: any fixed bigint no other code of ours takes. */
const MIGRATION_LOCK = 0x45_57_4d_49_47 // "EWMIG"

/** A database from a later Eventwatch: refused, unchanged (as SchemaTooNewError refuses a file). */
export class PgSchemaTooNewError extends StorageError {
  constructor(database: string, found: number, known: number) {
    super(
      `${database} was written by a newer Eventwatch (schema ${found}, this build knows ${known}): ` +
        'upgrade Eventwatch on this server or use another database (--db URL or EVENTWATCH_DB); the database was not changed',
      database,
      'SCHEMA_TOO_NEW'
    )
    this.name = 'PgSchemaTooNewError'
  }
}

const VERSIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer PRIMARY KEY,
  name       text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

/** The newest version applied, 0 for an empty database. */
export async function pgSchemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ found: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS found")
  if (!exists.rows[0]?.found) return 0
  const result = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')
  return result.rows[0]?.version ?? 0
}

/** Migrates the database `client` is connected to; answers the version it is at. `database`
 *  names it in words (its URL without a password). */
export async function migratePg(client: pg.ClientBase, database: string, migrations: readonly PgMigration[] = pgMigrations): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0
  for (;;) {
    await client.query('BEGIN')
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      const seen = await pgSchemaVersion(client)
      // Before any write: the database stays as it was.
      if (seen > latest) throw new PgSchemaTooNewError(database, seen, latest)
      const next = migrations.find((migration) => migration.version > seen)
      if (!next) {
        await client.query('COMMIT')
        return seen
      }
      await client.query(VERSIONS_TABLE)
      await client.query(next.sql)
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [next.version, next.name])
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    }
  }
}
