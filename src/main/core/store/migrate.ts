// Brings a database up to the newest schema; the version lives in PRAGMA user_version.
import type { Database } from 'better-sqlite3'
import { migrations as allMigrations } from './migrations'
import type { Migration } from './migrations/types'

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`the cache was written by a newer Eventwatch (schema ${found}; this version knows ${known}). Update Eventwatch or use another --db file.`)
    this.name = 'SchemaTooNewError'
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

export function migrate(db: Database, migrations: readonly Migration[] = allMigrations): number {
  const latest = migrations.at(-1)?.version ?? 0
  const current = schemaVersion(db)
  if (current > latest) throw new SchemaTooNewError(current, latest)
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
