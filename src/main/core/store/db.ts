// Opens the cache: WAL, NORMAL sync, a busy timeout, foreign keys, migrated to the newest schema.
// A file that cannot be the cache (not SQLite, a newer schema, a read-only or full disk) is
// refused with a StorageError naming it and what to do; one it refuses is left as it was.
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { notADatabase, rememberCacheFile, storageFault } from '../storage-faults'
import { readCacheHeader } from './cache-header'
import { latestSchema, migrate, SchemaTooNewError } from './migrate'

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
  try {
    if (onDisk) refuseUnusable(file)
    if (onDisk && !readonly) mkdirSync(dirname(file), { recursive: true })
    db = new Database(file, {
      readonly,
      fileMustExist: readonly,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
    })
  } catch (error) {
    throw onDisk ? (storageFault(error, file) ?? error) : error
  }
  try {
    // First, so that every step below waits for another connection's write instead of failing.
    db.pragma('busy_timeout = 5000')
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
 * Not SQLite, or a schema newer than this build's: refused from the header alone, before SQLite
 * touches the file. (A WAL file's header may lag its log; migrate() checks again once open.)
 */
function refuseUnusable(file: string): void {
  const header = readCacheHeader(file)
  if (header.kind === 'not-sqlite') throw notADatabase(file)
  if (header.kind === 'sqlite' && header.userVersion > latestSchema()) {
    throw new SchemaTooNewError(file, header.userVersion, latestSchema())
  }
}
