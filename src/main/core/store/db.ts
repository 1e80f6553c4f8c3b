// Opens the cache: WAL, NORMAL sync, a busy timeout, foreign keys, migrated to the newest schema.
// A file that cannot be the cache (not SQLite, a newer schema, a read-only or full disk) is
// refused with a StorageError naming it and what to do; one it refuses is left as it was.
//
// The file is only ever opened through SQLite. Other programs (the sqlite3 shell, backup tools)
// share it while Eventwatch runs, and SQLite's POSIX locks belong to the process: closing any
// descriptor of the file, even one opened to read its header, drops them all, and the next
// reader to close then takes itself for the last one and deletes the -wal under our feet
// (sqlite.org/howtocorrupt.html, 2.2).
import Database from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { notADatabase, rememberCacheFile, storageFault } from '../storage-faults'
import { latestSchema, migrate, SchemaTooNewError, schemaVersion } from './migrate'

export type Db = Database.Database

export interface OpenOptions {
  /** A better-sqlite3 binary built for this runtime (the Electron app has its own). */
  nativeBinding?: string
  readonly?: boolean
}

export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const readonly = options.readonly ?? false
  const onDisk = file !== ':memory:' && file !== ''
  let db: Db
  let created = false
  try {
    // The cache holds what the service said and who may sign in: for this user's eyes only.
    if (onDisk && !readonly) mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    created = onDisk && !readonly && !existsSync(file)
    db = new Database(file, {
      readonly,
      fileMustExist: readonly,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
    })
  } catch (error) {
    throw onDisk ? (storageFault(error, file) ?? error) : error
  }
  try {
    // Before the -wal and -shm exist: SQLite gives them the database file's mode.
    if (created) chmodSync(file, 0o600)
    // First, so that every step below waits for another connection's write instead of failing.
    db.pragma('busy_timeout = 5000')
    // Before anything that could write: a file refused stays as it was.
    refuseUnusable(db, file)
    // Pages freed by retention can be handed back to the OS a few at a time (retention.ts).
    // The mode sticks only if set before the first table exists; older files change at their
    // next VACUUM (retention.ts sets the pragma before one).
    if (!readonly && (db.pragma('page_count', { simple: true }) as number) === 0) {
      db.pragma('auto_vacuum = INCREMENTAL')
    }
    if (!readonly) db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    if (!readonly) migrate(db)
  } catch (error) {
    db.close()
    throw onDisk ? (storageFault(error, file) ?? error) : error
  }
  if (onDisk) rememberCacheFile(db)
  if (!readonly) immediateTransactions(db)
  return db
}

/**
 * Every transaction on the cache takes the write lock when it begins (BEGIN IMMEDIATE). The cache
 * has two writers (this thread and the cache writer's): a deferred transaction that reads and
 * then writes fails at once with "database is locked" when the other committed in between, where
 * an immediate one waits its turn (busy_timeout), as a single statement does. Nested ones stay
 * savepoints.
 */
function immediateTransactions(db: Db): void {
  const deferredByDefault = db.transaction.bind(db)
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const variants = deferredByDefault(fn)
    const immediate = variants.immediate
    return Object.assign((...args: unknown[]) => immediate(...args), {
      default: immediate,
      deferred: variants.deferred,
      immediate,
      exclusive: variants.exclusive
    })
  }) as unknown as Db['transaction']
}

/**
 * Not SQLite, or a schema newer than this build's: refused by a read, before any statement that
 * writes (SQLite reads the header when first asked and answers SQLITE_NOTADB for any other file).
 */
function refuseUnusable(db: Db, file: string): void {
  let version: number
  try {
    version = schemaVersion(db)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') throw notADatabase(file)
    throw error
  }
  if (version > latestSchema()) throw new SchemaTooNewError(file, version, latestSchema())
}
