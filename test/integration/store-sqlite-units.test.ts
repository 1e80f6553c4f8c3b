// The SQLite store's own rules for units of work (docs/store.md), beyond the contract every
// backend passes (test/contract/store/): a unit that awaits anything but its tx is rolled back,
// because it would hold the cache's write lock while it waited; an in-memory database is refused;
// a unit fenced with a lease is refused (SQLite has no leases: one server per file); it delivers
// no notifications (one server per file).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { UnitOfWorkError } from '../../src/main/core/store/sqlite/unit-of-work-error'
import { openDatabase } from '../../src/main/core/store/db'
import { insertConnection, listConnections } from '../../src/main/core/store/connections'
import { connectionSettings, T0 } from '../contract/store/fixtures'

let dir: string
let store: SqliteStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-sqlite-units-'))
  store = openSqliteStore(join(dir, 'cache.db'))
})

afterEach(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a SQLite unit of work', () => {
  it('that awaits a timer is rolled back with an error that says why, and its later writes are refused', async () => {
    let lateWrite: Promise<unknown> | undefined
    const unit = store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await sleep(5)
      lateWrite = tx.connections.insert(connectionSettings('Tenant B'), 'B', T0)
      await lateWrite
    })
    await expect(unit).rejects.toThrow(UnitOfWorkError)
    await expect(unit).rejects.toThrow(/awaited something other than its tx.*rolled back/)
    await sleep(20)
    await expect(lateWrite).rejects.toThrow(/has ended/)
    expect(await store.read.connections.list()).toEqual([])
    // The write lock is free again: the next unit commits.
    await store.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant C'), 'C', T0))
    expect((await store.read.connections.list()).map((c) => c.id)).toEqual(['C'])
  })

  it('that awaits only its tx, however many times, commits', async () => {
    await store.withTransaction(async (tx) => {
      for (let i = 0; i < 500; i++) await tx.connections.insert(connectionSettings(`Tenant ${i}`), `c${i}`, T0)
    })
    expect(await store.read.connections.list()).toHaveLength(500)
  })

  it('lets code it left for later open a unit of its own once it has ended, even while another is open', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    let later: Promise<unknown> | undefined
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      // Scheduled inside the first unit, run inside the second: it is neither's code.
      later = gate.then(() => store.withTransaction((inner) => inner.connections.insert(connectionSettings('Tenant C'), 'C', T0)))
    })
    await store.withTransaction(async (tx) => {
      release()
      await tx.connections.insert(connectionSettings('Tenant B'), 'B', T0)
    })
    await later
    expect((await store.read.connections.list()).map((c) => c.id).sort()).toEqual(['A', 'B', 'C'])
  })

  it('refuses a write through store.read', async () => {
    const read = store.read as unknown as { connections: { remove(id: string): Promise<boolean> } }
    await expect(read.connections.remove('A')).rejects.toThrow(/only reads/)
  })
})

describe('the SQLite store', () => {
  it('has no leases, and refuses a fenced unit rather than let it through unchecked', async () => {
    expect(store.leases).toBeUndefined()
    const fence = { name: 'connection:A', holder: 'host:1:uuid', fence: 1 }
    await expect(store.withTransaction((tx) => tx.connections.insert(connectionSettings('Tenant A'), 'A', T0), { fence })).rejects.toThrow(
      /^a unit of work fenced with a lease cannot run on a SQLite cache: it has no leases/
    )
    expect(await store.read.connections.list()).toEqual([])
  })

  it('delivers no notifications (one server per file): none to listen to, and a unit\'s are checked and dropped', async () => {
    expect(store.notifications).toBeUndefined()
    await store.withTransaction(async (tx) => {
      await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
      await tx.notifications.send('ew_board', 'A')
    })
    expect((await store.read.connections.get('A'))?.name).toBe('Tenant A')
  })

  it('needs a file: an in-memory database could not be shared by its two connections', () => {
    expect(() => openSqliteStore(':memory:')).toThrow(/needs a cache file/)
  })
})

describe('a SQLite store on the core\'s own connection (while callers move to the Store)', () => {
  it('lets a synchronous write on that connection, made while a unit is open, go through at once; closing the store leaves the connection open', async () => {
    const file = join(dir, 'shared.db')
    const db = openDatabase(file)
    const shared = openSqliteStore(file, { writer: db })
    try {
      let syncWrite: Promise<void> | undefined
      await shared.withTransaction(async (tx) => {
        await tx.connections.insert(connectionSettings('Tenant A'), 'A', T0)
        // Another chain of the same turn writes on the core's connection, as a handler still on
        // the Db would. On a second writing connection it would wait for this unit's lock and fail.
        syncWrite = Promise.resolve().then(() => {
          insertConnection(db, connectionSettings('Tenant B'), 'B', T0)
        })
        await syncWrite
        await tx.connections.insert(connectionSettings('Tenant C'), 'C', T0)
      })
      await syncWrite
      expect((await shared.read.connections.list()).map((c) => c.id).sort()).toEqual(['A', 'B', 'C'])
    } finally {
      await shared.close()
    }
    expect(listConnections(db).map((c) => c.id).sort()).toEqual(['A', 'B', 'C'])
    db.close()
  })
})
