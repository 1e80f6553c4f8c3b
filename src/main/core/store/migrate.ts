// Brings a database up to the newest schema; the version lives in PRAGMA user_version.
import type { Database } from 'better-sqlite3'
import { schemaTooNewWords, StorageError } from '../storage-faults'
import { migrations as allMigrations } from './migrations'
import type { Migration } from './migrations/types'

/** A cache from a later Eventwatch: refused, unchanged (a storage fault: the user picks the file or the build). */
export class SchemaTooNewError extends StorageError {
  constructor(file: string, found: number, known: number) {
    super(schemaTooNewWords(file, found, known), file, 'SCHEMA_TOO_NEW')
    this.name = 'SchemaTooNewError'
  }
}

/** The schema this build's migrations make. */
export const latestSchema = (migrations: readonly Migration[] = allMigrations): number => migrations.at(-1)?.version ?? 0

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

export function migrate(db: Database, migrations: readonly Migration[] = allMigrations): number {
  const latest = latestSchema(migrations)
  const current = schemaVersion(db)
  // Before any write: the file stays as it was (db.ts refuses most such files before opening them).
  if (current > latest) throw new SchemaTooNewError(db.name, current, latest)
  for (const migration of migrations) {
    if (migration.version <= current) continue
    // Each step commits alone, with its version: a crash leaves a whole, known schema.
    // (The foreign_keys pragma has no effect inside a transaction: it is switched around it.)
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number
    if (migration.withoutForeignKeys) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        migration.up(db)
        if (migration.withoutForeignKeys && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`migration ${migration.version} (${migration.name}) broke a foreign key; nothing was changed`)
        }
        db.pragma(`user_version = ${migration.version}`)
      })()
    } finally {
      if (migration.withoutForeignKeys) db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`)
    }
  }
  return schemaVersion(db)
}
