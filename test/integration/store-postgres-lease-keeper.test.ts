// The lease keeper (core/sync/lease-keeper.ts) of servers sharing one real PostgreSQL database
// (docs/scaling-plan.md section 2): two split the connections evenly and a clean stop hands one's
// share to the other at once; a server killed without releasing (a real process, SIGKILL) loses
// its connections to the other once its leases run out, each with the next fence; a server whose
// renewals cannot reach the database gives its lease up before the database lets it run out, and
// once another has taken it, its late units are refused and write nothing; that deadline is timed
// on the keeper's own monotonic clock from when its last renewal that went through was sent; a stop
// that comes while a claim is on its way waits for it, so it leaves no lease or heartbeat behind.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { connectionLease, LeaseLostError, type Lease } from '../../src/main/core/store/interface/leases'
import { openPgStore, type PgStore } from '../../src/main/core/store/postgres/pg-store'
import { LeaseKeeper, type LeaseKeeperOptions, type SurrenderReason } from '../../src/main/core/sync/lease-keeper'
import { sessionRecord, T0, withConnection } from '../contract/store/fixtures'
import { ROOT } from '../support/cli'
import { ManualTimers } from '../support/manual-timers'
import { pausableProxy, type PausableProxy } from '../support/pausable-proxy'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

let database: TestDatabase
const stores: PgStore[] = []
const keepers: LeaseKeeper[] = []
const children: ChildProcess[] = []
let proxy: PausableProxy | undefined

beforeEach(async () => {
  database = await freshDatabase()
})

afterEach(async () => {
  proxy?.resume()
  for (const keeper of keepers.splice(0)) await keeper.stop()
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const store of stores.splice(0)) await store.close()
  await proxy?.close()
  proxy = undefined
  await database.drop()
})

async function server(url = database.url): Promise<PgStore> {
  const store = await openPgStore(url, { poolSize: 4 })
  stores.push(store)
  return store
}

interface Watched {
  keeper: LeaseKeeper
  started: Lease[]
  lost: { connectionId: string; why: string }[]
  surrendered: { connectionId: string; why: SurrenderReason }[]
}

function keep(store: PgStore, holder: string, options: Partial<LeaseKeeperOptions>): Watched {
  const watched: Watched = { started: [], lost: [], surrendered: [], keeper: undefined as unknown as LeaseKeeper }
  watched.keeper = new LeaseKeeper({
    leases: store.leases,
    holder,
    started: (_, lease) => watched.started.push(lease),
    lost: (connectionId, why) => watched.lost.push({ connectionId, why }),
    surrender: async (connectionId, why) => {
      watched.surrendered.push({ connectionId, why })
    },
    ...options
  })
  keepers.push(watched.keeper)
  watched.keeper.start()
  return watched
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await sleep(50)
  }
}

async function seedConnections(store: PgStore, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `c${i + 1}`)
  for (const id of ids) await withConnection(store, id)
  return ids
}

async function holders(store: PgStore): Promise<Record<string, string[]>> {
  const byHolder: Record<string, string[]> = {}
  for (const lease of await store.leases.list()) (byHolder[lease.holder] ??= []).push(lease.name)
  return byHolder
}

it('splits six connections three and three between two servers, and hands a stopped one’s share over at once', async () => {
  const [a, b] = [await server(), await server()]
  const ids = await seedConnections(a, 6)
  // Leases of a minute: within this test a connection changes hands only by a release.
  const timing = { lengthMs: 60_000, renewEveryMs: 250 }
  const first = keep(a, 'host-a:1:aaaa', timing)
  await until('the first server holds every connection', () => first.keeper.connections.length === 6, 10_000)
  const second = keep(b, 'host-b:2:bbbb', timing)
  await until(
    'each server holds three',
    () => first.keeper.connections.length === 3 && second.keeper.connections.length === 3,
    15_000
  )
  expect([...first.keeper.connections, ...second.keeper.connections].sort()).toEqual(ids)
  expect(first.surrendered.map((s) => s.why)).toEqual(['surplus', 'surplus', 'surplus'])
  const inDatabase = await holders(a)
  expect(inDatabase['host-a:1:aaaa']).toHaveLength(3)
  expect(inDatabase['host-b:2:bbbb']).toHaveLength(3)

  const handedOver = first.keeper.connections
  await first.keeper.stop()
  expect(first.surrendered.slice(3).map((s) => s.why)).toEqual(['stopping', 'stopping', 'stopping'])
  await until('the second server holds every connection', () => second.keeper.connections.length === 6, 10_000)
  const fences = new Map(second.started.map((lease) => [lease.name, lease.fence]))
  // Taken by the first server (fence 1), released by its stop, now the second's (fence 2).
  expect(handedOver.map((id) => fences.get(connectionLease(id)))).toEqual([2, 2, 2])
  expect(first.lost).toEqual([])
  expect(second.lost).toEqual([])
}, 60_000)

it('takes a killed server’s connections over once their leases run out, each with the next fence', async () => {
  const store = await server()
  await seedConnections(store, 6)
  const timing = { lengthMs: 3_000, renewEveryMs: 500 }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test', 'support', 'processes', 'lease-keeper-server.ts'), database.url, String(timing.lengthMs), String(timing.renewEveryMs)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  children.push(child)
  let printed = ''
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  await until('the child server holds every connection', () => (printed.match(/^started /gm) ?? []).length === 6, 20_000)

  const survivor = keep(store, 'host-b:2:bbbb', timing)
  await until('each server holds three', () => survivor.keeper.connections.length === 3, 15_000)
  const childHolder = /^holder (.+)$/m.exec(printed)![1]!
  const dying = (await store.leases.list()).filter((lease) => lease.holder === childHolder)
  expect(dying).toHaveLength(3)

  child.kill('SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))
  // A lease runs out at most its length after the last renewal; the next claim comes within a period.
  await until(
    'the survivor holds every connection',
    () => survivor.keeper.connections.length === 6,
    timing.lengthMs + 2 * timing.renewEveryMs + 3_000
  )
  const taken = new Map(survivor.started.map((lease) => [lease.name, lease.fence]))
  expect(dying.map((lease) => taken.get(lease.name))).toEqual(dying.map((lease) => lease.fence + 1))
  expect(survivor.lost).toEqual([])
}, 60_000)

it('gives a lease up before the database lets it run out when its renewals cannot get through, and refuses its late units', async () => {
  const direct = await server()
  await withConnection(direct, 'X')
  proxy = await pausableProxy(Number(new URL(database.url).port))
  const stalled = await server(proxy.through(database.url))
  const timing = { lengthMs: 4_000, renewEveryMs: 1_000 }
  const stillLiveAtLoss: Promise<boolean>[] = []
  const watched = keep(stalled, 'host-a:1:aaaa', {
    ...timing,
    lost: (connectionId, why) => {
      watched.lost.push({ connectionId, why })
      // What the database says at that moment (over a connection that is not stalled).
      stillLiveAtLoss.push(expiresLater(connectionLease(connectionId)))
    }
  })
  await until('the server holds X', () => watched.started.length === 1, 10_000)
  const lease = watched.started[0]!

  proxy.pause()
  await until('the server gives the lease up', () => watched.lost.length === 1, timing.lengthMs + 2_000)
  expect(watched.lost[0]).toEqual({
    connectionId: 'X',
    why: expect.stringMatching(/^the renewal of the lease of connection X has not gone through in \d+ s \(the lease runs out 4 s after a renewal is sent\)/)
  })
  expect(await stillLiveAtLoss[0]).toBe(true)
  expect(watched.keeper.connections).toEqual([])

  let takeover: Lease | null = null
  await until('another server takes X once the lease has run out', async () => (takeover = await direct.leases.acquire(connectionLease('X'), 'host-b:2:bbbb', 60_000)) !== null, 10_000)
  expect(takeover).toMatchObject({ holder: 'host-b:2:bbbb', fence: lease.fence + 1 })

  proxy.resume()
  const late = await stalled
    .withTransaction((tx) => tx.sessions.storeList('X', [sessionRecord('late', T0)], T0), { fence: lease })
    .catch((error: unknown) => error)
  expect(late).toBeInstanceOf(LeaseLostError)
  expect((late as Error).message).toMatch(/^the lease of connection X was taken over by host-b:2:bbbb \(fence 1 → 2\)/)
  expect(await direct.read.sessions.live('X')).toEqual([])
  // The stalled renewal, delivered late, renewed nothing.
  expect(await direct.leases.get(connectionLease('X'))).toMatchObject({ holder: 'host-b:2:bbbb', fence: 2 })
}, 60_000)

it('times a stalled renewal on its own monotonic clock from when the last renewal that went through was sent', async () => {
  const direct = await server()
  await withConnection(direct, 'X')
  proxy = await pausableProxy(Number(new URL(database.url).port))
  const stalled = await server(proxy.through(database.url))
  // The defaults (a 30 s lease renewed every 10 s), on timers and a clock that move only when told.
  const timers = new ManualTimers(0)
  const watched = keep(stalled, 'host-a:1:aaaa', { timers, monotonic: timers.clock })
  // A pass has ended when the next pass and the watchdog (its renewal's deadline) are both set.
  const passDone = (...at: number[]) => until(`a pass has set ${at.join(' and ')}`, () => at.every((t) => timers.scheduled.includes(t)), 10_000)
  const justSent = () => sleep(300)

  await timers.advance(0, () => passDone(10_000, 20_000))
  expect(watched.started).toHaveLength(1)
  await timers.advance(10_000, () => passDone(20_000, 30_000)) // renewed: sent at 10 s
  proxy.pause()
  await timers.advance(10_000, justSent) // the renewal sent at 20 s does not get through
  await timers.advance(9_999, justSent)
  expect(watched.lost).toEqual([]) // 10 s + 30 s − 10 s is not yet
  await timers.advance(1, justSent)
  expect(watched.lost).toEqual([
    {
      connectionId: 'X',
      why: 'the renewal of the lease of connection X has not gone through in 20 s (the lease runs out 30 s after a renewal is sent): this server stops before another may take it'
    }
  ])
  expect(await expiresLater(connectionLease('X'))).toBe(true)
}, 60_000)

async function expiresLater(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    const result = await client.query<{ live: boolean }>('SELECT expires_at > now() AS live FROM leases WHERE name = $1', [name])
    return result.rows[0]?.live ?? false
  } finally {
    await client.end()
  }
}

it('leaves nothing behind when it stops during a claim: the claim commits first, then every lease and the heartbeat go', async () => {
  const store = await server()
  await seedConnections(store, 2)
  // A claim that reaches the database only after the stop began (a slow network), then commits.
  let sendClaim!: () => void
  const held = new Promise<void>((resolve) => (sendClaim = resolve))
  let claimed: Promise<unknown> | undefined
  const leases = {
    ...store.leases,
    claimShare: (holder: string, lengthMs: number) => (claimed = held.then(() => store.leases.claimShare(holder, lengthMs))) as ReturnType<typeof store.leases.claimShare>
  }
  const watched = keep(store, 'host-a:1:aaaa', { leases, lengthMs: 60_000, renewEveryMs: 250 })
  await until('the claim is on its way', () => claimed !== undefined, 5_000)

  const stopped = watched.keeper.stop()
  await sleep(100)
  sendClaim()
  await stopped
  await claimed
  // Before: the stop removed the heartbeat first, and the late claim wrote it back with two leases
  // nobody would renew, each waiting a minute for a peer to take it.
  expect(await store.leases.held()).toEqual([])
  expect(await database.query('SELECT holder FROM lease_holders')).toEqual([])
  expect(watched.started).toEqual([])
}, 30_000)
