// Leases (docs/scaling-plan.md section 2): servers on one database (here two stores, each with a
// pool of its own, as two servers) never hold the same lease; one that ran out is taken with the
// next fence; a unit fenced with a lost lease writes nothing and says who took it; only the holder
// renews or releases, and a release frees it at once; each server claims a fair share.
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { connectionLease, jobLease, LeaseLostError, type LeaseStore } from '../../../src/main/core/store/interface/leases'
import type { Store } from '../../../src/main/core/store/interface/store'
import { eachBackend } from './backends'
import { sessionRecord, T0, withConnection } from './fixtures'

const LONG = 30_000
/** A lease that runs out at once: the database's clock passes it within milliseconds. */
const SHORT = 1

const A = 'host-a:101:aaaa'
const B = 'host-b:202:bbbb'

function leasesOf(store: Store): LeaseStore {
  if (!store.leases) throw new Error('this backend has no leases')
  return store.leases
}

async function connections(store: Store, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `c${i + 1}`)
  for (const id of ids) await withConnection(store, id)
  return ids
}

eachBackend('leases', (subject) => {
  it('grants a lease to one server at a time, with fence 1 the first time', async () => {
    const { store, openOther } = subject()
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    const name = jobLease('retention')
    const first = await a.acquire(name, A, LONG)
    expect(first).toMatchObject({ name, holder: A, fence: 1 })
    expect(await b.acquire(name, B, LONG)).toBeNull()
    expect(await a.acquire(name, A, LONG)).toBeNull() // held, even by itself: it renews instead
    expect(await b.get(name)).toMatchObject({ holder: A, fence: 1 })
  })

  it('never lets two servers hold the same lease, however their acquisitions and claims interleave', async () => {
    const { store, openOther } = subject()
    const ids = await connections(store, 6)
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    const name = jobLease('repeats')
    const races = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).acquire(name, i % 2 ? A : B, LONG)))
    expect(races.filter((lease) => lease !== null)).toHaveLength(1)

    const claims = await Promise.all([a.claimShare(A, LONG), b.claimShare(B, LONG), a.claimShare(A, LONG), b.claimShare(B, LONG)])
    const acquired = claims.flatMap((claim) => claim.acquired.map((lease) => lease.name))
    expect(new Set(acquired).size).toBe(acquired.length)
    const held = (await a.list()).filter((lease) => lease.name.startsWith('connection:'))
    expect(held.map((lease) => lease.name).sort()).toEqual(ids.map(connectionLease).sort())
    expect(held.map((lease) => lease.fence)).toEqual(ids.map(() => 1))
  })

  it('lets another server take a lease that ran out, with the next fence', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    const old = await a.acquire(connectionLease('X'), A, SHORT)
    await sleep(20)
    const taken = await b.acquire(connectionLease('X'), B, LONG)
    expect(taken).toMatchObject({ holder: B, fence: old!.fence + 1 })
    expect(await a.renew([old!], LONG)).toEqual([]) // lost: the old holder learns it at its renewal
  })

  it('refuses a unit fenced with a lease taken over: it writes nothing and names the new holder and fence', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const other = await openOther()
    const old = await leasesOf(store).acquire(connectionLease('X'), A, SHORT)
    await sleep(20)
    const taken = await leasesOf(other).acquire(connectionLease('X'), B, LONG)

    const refused = await store
      .withTransaction((tx) => tx.sessions.storeList('X', [sessionRecord('stale', T0)], T0), { fence: old! })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(LeaseLostError)
    expect(String((refused as Error).message)).toBe(
      `the lease of connection X was taken over by ${B} (fence 1 → 2): this server no longer writes for it, and the unit of work was rolled back`
    )
    expect(await store.read.sessions.live('X')).toEqual([])

    await other.withTransaction((tx) => tx.sessions.storeList('X', [sessionRecord('fresh', T0)], T0), { fence: taken! })
    expect((await store.read.sessions.live('X')).map((s) => s.event_session_id)).toEqual(['fresh'])
  })

  it('keeps a takeover waiting until a fenced unit in hand has committed', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const b = leasesOf(await openOther())
    const lease = await leasesOf(store).acquire(connectionLease('X'), A, SHORT)
    let takeover: Promise<unknown> | undefined
    let settledInUnit = false
    await store.withTransaction(
      async (tx) => {
        await sleep(20) // the lease ran out, but the unit checked its fence and holds the row
        takeover = b.acquire(connectionLease('X'), B, LONG)
        void takeover.then(() => (settledInUnit = true))
        await sleep(200)
        expect(settledInUnit).toBe(false)
        await tx.sessions.storeList('X', [sessionRecord('last-words', T0)], T0)
      },
      { fence: lease! }
    )
    expect(await takeover).toMatchObject({ holder: B, fence: 2 })
    expect((await store.read.sessions.live('X')).map((s) => s.event_session_id)).toEqual(['last-words'])
  })

  it('renews only for the holder with its fence', async () => {
    const { store } = subject()
    const leases = leasesOf(store)
    const lease = (await leases.acquire(jobLease('retention'), A, LONG))!
    expect(await leases.renew([{ ...lease, holder: B }], LONG)).toEqual([])
    expect(await leases.renew([{ ...lease, fence: lease.fence + 1 }], LONG)).toEqual([])
    const [renewed] = await leases.renew([lease], LONG)
    expect(renewed).toMatchObject({ name: lease.name, holder: A, fence: 1 })
    expect(renewed!.expiresAt).toBeGreaterThanOrEqual(lease.expiresAt)
  })

  it('lists as held only the leases that have not run out, by the database’s clock', async () => {
    const { store, openOther } = subject()
    await connections(store, 2)
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    const live = await a.acquire(connectionLease('c1'), A, LONG)
    await b.acquire(connectionLease('c2'), B, SHORT)
    const released = await b.acquire(jobLease('retention'), B, LONG)
    await b.release(released!)
    await sleep(5)
    expect(await b.held()).toEqual([{ ...live, expiresAt: expect.any(Number) }])
    expect((await a.list()).map((lease) => lease.name)).toEqual([connectionLease('c1'), connectionLease('c2'), jobLease('retention')])
  })

  it('frees a released lease at once, and keeps counting fences', async () => {
    const { store, openOther } = subject()
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    const lease = (await a.acquire(jobLease('retention'), A, LONG))!
    expect(await b.release({ ...lease, holder: B })).toBe(false)
    expect(await a.release(lease)).toBe(true)
    expect(await b.acquire(jobLease('retention'), B, LONG)).toMatchObject({ holder: B, fence: 2 })
    expect(await a.release(lease)).toBe(false)
  })

  it('claims a fair share: the enabled connections over the live servers', async () => {
    const { store, openOther } = subject()
    const ids = await connections(store, 6)
    await withConnection(store, 'off')
    await store.withTransaction((tx) => tx.connections.setEnabled('off', false, T0))
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]

    const alone = await a.claimShare(A, LONG)
    expect(alone.share).toBe(6)
    expect(alone.acquired.map((lease) => lease.name).sort()).toEqual(ids.map(connectionLease))

    const joined = await b.claimShare(B, LONG)
    expect(joined).toEqual({ share: 3, acquired: [], disabled: [] })
    // A over its share gives three up (the keeper does, at a pass boundary); B takes them.
    for (const lease of alone.acquired.slice(0, 3)) await a.release(lease)
    const second = await b.claimShare(B, LONG)
    expect(second.acquired.map((lease) => [lease.name, lease.fence]).sort()).toEqual(
      alone.acquired.slice(0, 3).map((lease) => [lease.name, 2]).sort()
    )
    expect((await a.claimShare(A, LONG)).acquired).toEqual([])
  })

  it('gives a leaving server’s leases and share to the others at once', async () => {
    const { store, openOther } = subject()
    await connections(store, 4)
    const [a, b] = [leasesOf(store), leasesOf(await openOther())]
    await a.claimShare(A, LONG)
    expect((await b.claimShare(B, LONG)).share).toBe(2)
    await a.leave(A)
    const after = await b.claimShare(B, LONG)
    expect(after.share).toBe(4)
    expect(after.acquired.map((lease) => lease.fence)).toEqual([2, 2, 2, 2])
  })

  it('names the connections switched off under a holder, and drops a removed connection’s lease with it', async () => {
    const { store } = subject()
    await connections(store, 2)
    const leases = leasesOf(store)
    const { acquired } = await leases.claimShare(A, LONG)
    await store.withTransaction((tx) => tx.connections.setEnabled('c2', false, T0))
    expect((await leases.claimShare(A, LONG)).disabled).toEqual(['c2'])

    const c1 = acquired.find((lease) => lease.name === connectionLease('c1'))!
    await store.withTransaction((tx) => tx.connections.remove('c1'))
    expect(await leases.get(connectionLease('c1'))).toBeNull()
    await expect(store.withTransaction(async () => undefined, { fence: c1 })).rejects.toThrow(
      /^the lease of connection c1 is gone \(its connection was removed\): this server no longer writes for it/
    )
  })
})
