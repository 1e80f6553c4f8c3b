// A lease holder that stalls in the middle of a unit of work (a frozen VM, SIGSTOP) keeps its
// transaction open, and with it the FOR SHARE lock of its fence on the lease row
// (docs/scaling-plan.md section 2). Without a bound nobody could take the lease over until it woke,
// and the taker's keeper pass (its renewals too) would wait on that lock. So, on a real PostgreSQL:
// an acquisition or a claim does not wait for such a lock (it takes nothing this time, at once), and
// PostgreSQL ends the stalled session after its writing unit has been idle for 5 s: the lock goes,
// the lease is taken with the next fence, and the stalled unit writes nothing. A read-only unit,
// which may await a slow reader between pages (an export), is not ended so.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, expect, it } from 'vitest'
import { connectionLease } from '../../src/main/core/store/interface/leases'
import { openPgStore, type PgStore } from '../../src/main/core/store/postgres/pg-store'
import { T0, withConnection } from '../contract/store/fixtures'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

const A = 'host-a:101:aaaa'
const B = 'host-b:202:bbbb'
const LONG = 60_000

let database: TestDatabase | undefined
const stores: PgStore[] = []

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  await database?.drop()
})

async function server(): Promise<PgStore> {
  const store = await openPgStore(database!.url, { poolSize: 3 })
  stores.push(store)
  return store
}

it('neither waits for nor is kept from a lease whose holder stalled inside a fenced unit, and that unit writes nothing', async () => {
  database = await freshDatabase()
  const [a, b] = [await server(), await server()]
  await withConnection(a, 'X')
  const name = connectionLease('X')
  const lease = (await a.leases.acquire(name, A, 1_000))!
  // A's unit checks its fence (FOR SHARE), writes, then stalls: its process froze.
  let settled = false
  const stalled = a
    .withTransaction(async (tx) => {
      await tx.runs.start('X', 'details', T0)
      await sleep(10_000)
      await tx.runs.start('X', 'details', T0 + 1)
    }, { fence: lease })
    .finally(() => (settled = true))
  stalled.catch(() => undefined)
  await sleep(1_500) // A's lease has run out

  // B takes nothing yet, and says so at once rather than wait for A's unit.
  expect(await b.leases.acquire(name, B, LONG)).toBeNull()
  const claim = await b.leases.claimShare(B, LONG)
  expect(claim.acquired).toEqual([])
  expect(settled).toBe(false)

  // PostgreSQL ends A's idle session: its lock goes, B takes the lease with the next fence.
  const taken = await (async () => {
    for (let i = 0; i < 200; i++) {
      const got = await b.leases.acquire(name, B, LONG)
      if (got) return got
      await sleep(100)
    }
    throw new Error('B never took the lease')
  })()
  expect(taken).toMatchObject({ holder: B, fence: lease.fence + 1 })
  expect(settled).toBe(false) // still asleep: it is its session that was ended, not its sleep
  await expect(stalled).rejects.toThrow()
  expect(await b.read.runs.list('X')).toEqual([])
}, 60_000)

it('lets a long read-only unit await its reader between pages for longer than a writing unit may idle', async () => {
  database = await freshDatabase()
  const store = await server()
  await withConnection(store, 'X')
  const names = await store.withTransaction(
    async (tx) => {
      const before = await tx.connections.list()
      await sleep(6_500) // a slow reader of an export, past the 5 s a writing unit may idle
      return [...before, ...(await tx.connections.list())].map((c) => c.id)
    },
    { readOnly: true, long: true }
  )
  expect(names).toEqual(['X', 'X'])
}, 30_000)
