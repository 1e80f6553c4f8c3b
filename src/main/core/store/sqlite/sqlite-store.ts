// The Store on SQLite (docs/store.md): two connections to the cache file, one that writes (every
// unit of work, one at a time, under BEGIN IMMEDIATE) and one that only reads (store.read and
// read-only units), so that a read outside a unit never sees a unit's uncommitted writes.
//
// better-sqlite3 is synchronous and its transactions cannot span an await; a unit's tx calls run
// at once and hand back settled promises, so a unit that awaits only its tx ends within the same
// turn of the event loop. One that awaits anything else is rolled back when the loop turns: it
// would hold the write lock (and every other unit) while it waits.
import { AsyncLocalStorage } from 'node:async_hooks'
import { storageFault } from '../../storage-faults'
import { openDatabase, type Db, type OpenOptions } from '../db'
import { statement } from '../statements'
import type { ReadTx, Store, Tx, UnitOptions } from '../interface/store'
import { answerNow, refusing, type Runner } from './runners'
import { schemaAfresh } from './schema-afresh'
import { SerialQueue } from './serial-queue'
import { sqliteTables } from './tables'
import { awaitedElsewhere, fencedOnSqlite, nestedUnit, notInUnit, readOnlyUnit, storeClosed, unitEnded } from './unit-of-work-error'

export interface SqliteStoreOptions {
  /** A better-sqlite3 binary built for this runtime (the Electron app has its own). */
  nativeBinding?: string
  /**
   * The connection that writes, already open on `file` and kept by its owner (who closes it):
   * the core's own while its callers move to the Store (docs/store.md, "While callers are
   * converted"). Two writing connections on one thread would wait for each other's lock.
   */
  writer?: Db
}

export interface SqliteStore extends Store {
  /** The cache file. */
  readonly file: string
  /**
   * Runs `work` on the writing connection between two units, never inside one (in the writer's
   * queue): what SQLite alone does, outside any unit — compaction after retention, viewer lists
   * stored on this thread. For store/ only: the rest of the core knows the Store.
   */
  onWriter<T>(work: (db: Db) => T): Promise<T>
}

interface Connection {
  db: Db
  queue: SerialQueue
}

/** Opens (and migrates) the cache at `file` as a Store. */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SqliteStore {
  if (file === '' || file === ':memory:') {
    throw new Error('the SQLite store needs a cache file: an in-memory database cannot be shared by its two connections')
  }
  const binding: OpenOptions = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
  const ownsWriter = options.writer === undefined
  const writer: Connection = { db: options.writer ?? openDatabase(file, binding), queue: new SerialQueue() }
  let reader: Connection
  try {
    reader = { db: openDatabase(file, { ...binding, readonly: true }), queue: new SerialQueue() }
  } catch (error) {
    if (ownsWriter) writer.db.close()
    throw error
  }
  // Marks the code of a unit (its continuations too), to refuse a unit opened inside it, which
  // would wait for itself; code it scheduled for later (a timer) is no longer in it once it has
  // ended. Disabled while no unit is open: on Node 20 an enabled one slows every promise of the
  // process, not only the units'.
  const inUnit = new AsyncLocalStorage<{ open: boolean }>()
  let openUnits = 0
  let closed = false
  // Long reads under way (close waits for them), and what close waits on.
  let longReads = 0
  let longReadsEnded: (() => void) | undefined

  const answer: Runner = (call) => answerNow(call, file)
  const readNow: Runner = (call) => (closed ? Promise.reject(storeClosed()) : answer(call))
  const read: ReadTx = sqliteTables(reader.db, { read: readNow, write: refusing(notInUnit) })

  /** A statement of the unit's own (BEGIN, COMMIT, ROLLBACK), prepared once; a fault of the file in words. */
  const control = (db: Db, sql: string): void => {
    try {
      statement(db, sql).run()
    } catch (error) {
      throw storageFault(error, file) ?? error
    }
  }

  /** Undoes an open unit; the unit's own error says why, so a failure here (SQLite may have rolled
   *  back already) does not replace it. */
  const rollback = (db: Db): void => {
    try {
      if (db.inTransaction) statement(db, 'ROLLBACK').run()
    } catch {
      // the connection says at the next BEGIN if it is still in a transaction
    }
  }

  /** A long read-only unit: on a read-only connection of its own, which may await elsewhere (it
   *  holds no write lock, and store.read and the other units go on on theirs). */
  async function longRead<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const own: Connection = { db: openDatabase(file, { ...binding, readonly: true }), queue: new SerialQueue() }
    longReads++
    try {
      return await unit(own, work, true, false)
    } finally {
      longReads--
      own.db.close()
      if (longReads === 0) longReadsEnded?.()
    }
  }

  async function unit<T>(on: Connection, work: (tx: Tx) => Promise<T>, readOnly: boolean, onlyThisTurn = true): Promise<T> {
    // Deferred for a read-only unit: it takes no write lock, and sees one state from its first read.
    control(on.db, readOnly ? 'BEGIN' : 'BEGIN IMMEDIATE')
    const state = { open: true }
    const guarded: Runner = (call) => (state.open ? answer(call) : Promise.reject(unitEnded()))
    const tx = sqliteTables(on.db, { read: guarded, write: readOnly ? refusing(readOnlyUnit) : guarded })
    let turned: NodeJS.Immediate | undefined
    const loopTurned = new Promise<never>((_, reject) => {
      if (onlyThisTurn) turned = setImmediate(() => reject(awaitedElsewhere()))
    })
    openUnits++
    const running = inUnit.run(state, async () => work(tx))
    try {
      const result = await Promise.race([running, loopTurned])
      control(on.db, 'COMMIT')
      return result
    } catch (error) {
      rollback(on.db)
      throw error
    } finally {
      state.open = false
      clearImmediate(turned)
      if (--openUnits === 0) inUnit.disable()
      // A unit rolled back for awaiting elsewhere still settles later; nobody waits for it.
      running.catch(() => undefined)
    }
  }

  return {
    file,
    read,
    // No `notifications`: one server per file, nothing to hear (sqlite/unheard-notifications.ts says why).
    withTransaction(work, unitOptions: UnitOptions = {}) {
      if (closed) return Promise.reject(storeClosed())
      if (inUnit.getStore()?.open) return Promise.reject(nestedUnit())
      // No leases on SQLite (interface/leases.ts): a fence that cannot be checked is not let through.
      if (unitOptions.fence) return Promise.reject(fencedOnSqlite())
      if (unitOptions.readOnly && unitOptions.long) return longRead(work)
      const on = unitOptions.readOnly ? reader : writer
      return on.queue.run(() => unit(on, work, unitOptions.readOnly ?? false))
    },
    async schema() {
      if (closed) throw storeClosed()
      return schemaAfresh(file, options.nativeBinding)
    },
    onWriter(work) {
      if (closed) return Promise.reject(storeClosed())
      return writer.queue.run(async () => answer(() => work(writer.db)))
    },
    async close() {
      if (closed) return
      closed = true
      await Promise.all([writer.queue.idle(), reader.queue.idle()])
      if (longReads > 0) await new Promise<void>((resolve) => (longReadsEnded = resolve))
      reader.db.close()
      if (ownsWriter) writer.db.close()
    }
  }
}
