// Opens the cache: WAL, NORMAL sync, a busy timeout, foreign keys, migrated to the newest schema.
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrate } from './migrate'

export type Db = Database.Database

export interface OpenOptions {
  /** A better-sqlite3 binary built for this runtime (the Electron app has its own). */
  nativeBinding?: string
  readonly?: boolean
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:' && !options.readonly) mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  })
  try {
    // Pages freed by retention can be handed back to the OS a few at a time (retention.ts).
    // The mode sticks only if set before the first table exists; older files change at their
    // next VACUUM (retention.ts sets the pragma before one).
    if (!options.readonly && (db.pragma('page_count', { simple: true }) as number) === 0) {
      db.pragma('auto_vacuum = INCREMENTAL')
    }
    if (!options.readonly) db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    db.pragma('foreign_keys = ON')
    if (!options.readonly) migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}
