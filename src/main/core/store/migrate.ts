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
  // Several processes may open a new cache at once (two `sync --once`, the desktop and a cron
  // job). Each step runs under the write lock (BEGIN IMMEDIATE) and re-reads the version inside
  // it, so a second process waits for the first and then finds that step done.
  for (;;) {
    const seen = schemaVersion(db)
    // Before any write: the file stays as it was (db.ts refuses most such files before this).
    if (seen > latest) throw new SchemaTooNewError(db.name, seen, latest)
    const next = migrations.find((migration) => migration.version > seen)
    if (!next) return seen
    applyStep(db, next, seen)
  }
}

/**
 * One step, committed alone with its version: a crash leaves a whole, known schema. Does nothing
 * when another process moved the version on since `seen` (the caller looks again).
 */
function applyStep(db: Database, migration: Migration, seen: number): void {
  // The foreign_keys pragma has no effect inside a transaction: it is switched around it.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number
  if (migration.withoutForeignKeys) db.pragma('foreign_keys = OFF')
  try {
    db.transaction(() => {
      if (schemaVersion(db) !== seen) return
      migration.up(db)
      if (migration.withoutForeignKeys && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
        throw new Error(`migration ${migration.version} (${migration.name}) broke a foreign key; nothing was changed`)
      }
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  } finally {
    if (migration.withoutForeignKeys) db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`)
  }
}
