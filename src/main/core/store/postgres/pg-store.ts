// The Store on PostgreSQL (docs/store.md; docs/scaling-plan.md section 4, step 5): a pg Pool.
// A unit of work takes a client from the pool, runs BEGIN … COMMIT (or ROLLBACK when its work
// rejects) on it, and its tx's calls run on that client; store.read runs single statements on
// the pool, and sees only what has been committed.
//
// Units of one store run one after another, as on SQLite: the contract promises that a unit sees
// what the unit begun before it committed. Units of different stores (other servers) do run at
// the same time: what a unit reads and then writes back is locked (SELECT … FOR UPDATE) by the
// concern's own statement, so no update is lost between servers either.
import { AsyncLocalStorage } from 'node:async_hooks'
import type pg from 'pg'
import { LeaseLostError, type Fence, type LeaseStore } from '../interface/leases'
import type { ReadTx, Store, Tx, UnitOptions } from '../interface/store'
import { SerialQueue } from '../sqlite/serial-queue'
import { fencedReadOnly, nestedUnit, notInUnit, readOnlyUnit, storeClosed, unitEnded } from '../sqlite/unit-of-work-error'
import { checkFence, leaseTable } from './lease-table'
import { migratePg, pgSchemaVersion } from './migrate'
import { pgMigrations } from './migrations'
import { pgFault } from './pg-faults'
import { PgListener, type ListenerOptions } from './pg-listener'
import { nulFreeParameters } from './nul-free'
import { openPool, READ_ONLY_MAY_IDLE, redactedUrl } from './pool'
import { refusingSql, type Sql } from './sql'
import { pgTables } from './tables'

export interface PgStore extends Store {
  /** The database, named without its password. */
  readonly database: string
  leases: LeaseStore
  /**
   * Runs `work` on a client of the store's pool, outside any unit of work: for what writes on its
   * own terms, the viewer list writer (postgres/viewer-list-store.ts). A fault of the database
   * comes out in words; a client left in a failed transaction is not given back to the pool.
   */
  withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>
}

export interface PgStoreOptions {
  /** Clients in the pool (a unit holds one; reads share the rest). */
  poolSize?: number
  /** The back-off of the listening connection (pg-listener.ts), opened at the first listen. */
  listener?: ListenerOptions
}

/** A pg client's answer as the tables take it; a fault of the database in words. */
const answering =
  (database: string) =>
  (client: pg.Pool | pg.PoolClient): Sql =>
  async (text, values) => {
    try {
      const result = await client.query(text, nulFreeParameters(values) as unknown[] | undefined)
      return { rows: result.rows, count: result.rowCount ?? 0 }
    } catch (error) {
      throw pgFault(error, database) ?? error
    }
  }

/** Opens the database at `url` (postgres://…) as a Store, migrating it first. */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const database = redactedUrl(url)
  const on = answering(database)
  // Two at least: a unit holds one while store.read answers on another.
  const pool = openPool(url, { max: Math.max(2, options.poolSize ?? 10) })
  try {
    const client = await pool.connect()
    try {
      await migratePg(client, database)
    } finally {
      client.release()
    }
  } catch (error) {
    await pool.end()
    throw pgFault(error, database) ?? error
  }

  // Marks a unit's code, to refuse a unit opened inside it (it would wait for itself in the queue).
  const inUnit = new AsyncLocalStorage<{ open: boolean }>()
  const writes = new SerialQueue()
  const readOnlyUnits = new Set<Promise<unknown>>()
  // One connection of its own for LISTEN, besides the pool: opened at the first listen.
  const listener = new PgListener(url, database, options.listener)
  let openUnits = 0
  let closed = false

  const pooled = on(pool)
  const readNow: Sql = (text, values) => (closed ? Promise.reject(storeClosed()) : pooled(text, values))
  const read: ReadTx = pgTables({ read: readNow, write: refusingSql(notInUnit), locking: false })

  // A client's connection that the server ends while it is checked out (a stalled unit's session
  // ended, the server restarting) is an 'error' event, which with no listener ends the process;
  // the query in flight rejects with it anyway, and the client is released as broken.
  const whileCheckedOut = (): void => undefined
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect().catch((error: unknown) => {
      throw pgFault(error, database) ?? error
    })
    client.on('error', whileCheckedOut)
    return client
  }
  const release = (client: pg.PoolClient, broken?: Error): void => {
    client.off('error', whileCheckedOut)
    client.release(broken)
  }

  /** `work` between BEGIN (`begin`) and COMMIT on a client of its own; ROLLBACK when it rejects. */
  async function transaction<T>(begin: string, work: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await connect()
    let broken: Error | undefined
    try {
      await client.query(begin)
      try {
        const result = await work(on(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        // The work's own error says why; a failed ROLLBACK means the client is unusable.
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError))
        throw error
      }
    } finally {
      release(client, broken)
    }
  }

  async function unit<T>(work: (tx: Tx) => Promise<T>, readOnly: boolean, fence: Fence | undefined): Promise<T> {
    const state = { open: true }
    openUnits++
    try {
      // A read-only unit sees one snapshot throughout; a writing one locks what it reads to write.
      // A writing unit's session ends if it idles (pool.ts); a reading one may await its reader.
      return await transaction(readOnly ? `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${READ_ONLY_MAY_IDLE}` : 'BEGIN', async (direct) => {
        const guarded: Sql = (text, values) => (state.open ? direct(text, values) : Promise.reject(unitEnded()))
        const tx = pgTables({ read: guarded, write: readOnly ? refusingSql(readOnlyUnit) : guarded, locking: !readOnly })
        if (fence) {
          const check = await checkFence(direct, fence)
          if (!check.held) throw new LeaseLostError(fence, check.now)
        }
        return inUnit.run(state, () => work(tx))
      })
    } finally {
      state.open = false
      // Enabled, it slows every promise of the process (Node 20): only while a unit is open.
      if (--openUnits === 0) inUnit.disable()
    }
  }

  /** The leases' own short transactions: on the pool, never behind the queue of units. */
  const leaseTransaction = <T>(work: (sql: Sql) => Promise<T>): Promise<T> =>
    closed ? Promise.reject(storeClosed()) : transaction('BEGIN', work)

  return {
    database,
    read,
    leases: leaseTable(readNow, leaseTransaction),
    notifications: {
      listen: (channel, heard) => (closed ? Promise.reject(storeClosed()) : listener.listen(channel, heard))
    },
    async withClient(work) {
      if (closed) throw storeClosed()
      const client = await connect()
      let broken: Error | undefined
      try {
        return await work(client)
      } catch (error) {
        // Work that failed inside a transaction it began leaves the client unusable until ROLLBACK.
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError))
        throw pgFault(error, database) ?? error
      } finally {
        release(client, broken)
      }
    },
    withTransaction(work, unitOptions: UnitOptions = {}) {
      if (closed) return Promise.reject(storeClosed())
      if (inUnit.getStore()?.open) return Promise.reject(nestedUnit())
      const { fence } = unitOptions
      if (fence && unitOptions.readOnly) return Promise.reject(fencedReadOnly())
      if (!unitOptions.readOnly) return writes.run(() => unit(work, false, fence))
      const running = unit(work, true, fence)
      const settled = running.then(
        () => undefined,
        () => undefined
      )
      readOnlyUnits.add(settled)
      void settled.then(() => readOnlyUnits.delete(settled))
      return running
    },
    async schema() {
      if (closed) throw storeClosed()
      const client = await connect()
      try {
        const found = await pgSchemaVersion(client)
        return { found, known: pgMigrations.at(-1)?.version ?? 0 }
      } catch (error) {
        throw pgFault(error, database) ?? error
      } finally {
        release(client)
      }
    },
    async close() {
      if (closed) return
      closed = true
      await listener.close()
      await Promise.all([writes.idle(), ...readOnlyUnits])
      await pool.end()
    }
  }
}
