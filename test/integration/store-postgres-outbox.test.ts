// The webhook outbox drained by several servers on one PostgreSQL database (docs/webhooks.md,
// scaling-plan.md section 3): each server's deliverer claims a webhook's head before it sends it,
// so every delivery arrives once and each webhook's in order while both run; a server killed
// holding a claim leaves it, and the other sends that delivery once the claim has run out; a late
// answer to a server whose claim ran out does not overwrite the outcome of the one that took it.
// Real stores (a pool each, as two servers), real loopback receivers, real timers, and a real
// child process for the server that is killed.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Store } from '../../src/main/core/store/interface/store'
import type { ClaimedDelivery, WebhookRecord } from '../../src/main/core/store/interface/webhooks'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { WebhookDeliverer, type DelivererOptions } from '../../src/main/core/webhooks/deliverer'
import { realTimers } from '../../src/shared/timers'
import { ROOT } from '../support/cli'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'
import { webhookReceiver } from '../support/webhook-receiver'

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>

let database: TestDatabase
const cleanups: (() => Promise<unknown> | void)[] = []

beforeEach(async () => {
  database = await freshDatabase()
})

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await database.drop()
})

async function openStore(): Promise<Store> {
  const store = await openPgStore(database.url)
  cleanups.push(() => store.close())
  return store
}

async function receiver(): Promise<Receiver> {
  const r = await webhookReceiver()
  cleanups.push(() => r.close())
  return r
}

/** A server's deliverer on a store of its own; `sent` counts the attempts it made. */
async function server(claimer: string, options: Partial<DelivererOptions> = {}): Promise<{ store: Store; deliverer: WebhookDeliverer; sent: () => number }> {
  const store = await openStore()
  let attempts = 0
  const urlOf = options.urlOf ?? (async (hook: WebhookRecord) => hook.url)
  const deliverer = new WebhookDeliverer(store, {
    clock: Date.now,
    timers: realTimers,
    claimer,
    secretOf: async () => null,
    ...options,
    urlOf: (hook) => {
      attempts++
      return urlOf(hook)
    }
  })
  cleanups.push(() => deliverer.stop())
  return { store, deliverer, sent: () => attempts }
}

/** Webhook `id` to `url`, with a delivery queued for each key, in that order. */
async function queue(store: Store, id: string, url: string, keys: string[]): Promise<void> {
  await store.withTransaction(async (tx) => {
    if (!(await tx.webhooks.get(id))) await tx.webhooks.add({ name: `hook ${id}`, url, format: 'json' }, { signed: false, queryInKeychain: false }, id, Date.now())
    for (const key of keys) await tx.webhooks.enqueue({ webhookId: id, idempotencyKey: key, event: 'fired', alertId: null, body: `{"key":"${key}"}` }, Date.now())
  })
}

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  try {
    return (await client.query<R>(text, values)).rows
  } finally {
    await client.end()
  }
}

const keysOf = (r: Receiver): string[] => r.received.map((d) => d.key)

it('skips a head another server is claiming rather than wait for its unit, and never hands one out twice', async () => {
  const [a, b] = [await openStore(), await openStore()]
  const hooks = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6']
  for (const id of hooks) await queue(a, id, `http://127.0.0.1:9/${id}`, [`${id}-1`, `${id}-2`, `${id}-3`])
  const claim = (s: Store, id: string, by: string): Promise<ClaimedDelivery | null> =>
    s.withTransaction((tx) => tx.webhooks.claimHead(id, Date.now(), { by, until: Date.now() + 60_000 }))

  // A's unit has claimed w1's head and not committed: B does not wait for it, and gets nothing.
  let commit!: () => void
  const held = a.withTransaction(async (tx) => {
    const item = await tx.webhooks.claimHead('w1', Date.now(), { by: 'server-a', until: Date.now() + 60_000 })
    await new Promise<void>((resolve) => (commit = resolve))
    return item
  })
  await expect.poll(() => commit).toBeDefined()
  try {
    const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000).unref())
    expect(await Promise.race([claim(b, 'w1', 'server-b'), waited]), 'B waited for the unit of A').toBeNull()
  } finally {
    commit()
  }
  expect((await held)?.idempotencyKey).toBe('w1-1')
  expect(await claim(b, 'w1', 'server-b')).toBeNull() // committed now, and still standing

  // Both servers reach for every other webhook's head at the same time, round after round.
  const sent = new Map<string, string[]>(hooks.slice(1).map((id) => [id, []]))
  for (let round = 1; round <= 4; round++) {
    const claims = await Promise.all(
      (
        [
          [a, 'server-a'],
          [b, 'server-b']
        ] as const
      ).flatMap(([s, by]) => hooks.slice(1).map(async (id) => ({ s, item: await claim(s, id, by) })))
    )
    const won = claims.filter((c): c is { s: Store; item: ClaimedDelivery } => c.item !== null)
    expect(new Set(won.map((c) => c.item.id)).size, `round ${round}: a delivery was claimed twice`).toBe(won.length)
    expect(new Set(won.map((c) => c.item.webhookId)).size, `round ${round}: a webhook had two claims`).toBe(won.length)
    for (const { s, item } of won) {
      sent.get(item.webhookId)!.push(item.idempotencyKey)
      expect(await s.withTransaction((tx) => tx.webhooks.delivered(item, Date.now()))).toBe(true)
    }
  }
  for (const [id, keys] of sent) expect(keys).toEqual([`${id}-1`, `${id}-2`, `${id}-3`])
})

it('two servers deliver every queued delivery once, each webhook in order, while both run', async () => {
  const hooks = ['w1', 'w2', 'w3', 'w4']
  const receivers = await Promise.all(hooks.map(() => receiver()))
  // Each receiver holds its first delivery open: a server's two lanes are then both held, so the
  // other server's lanes must take the other two webhooks.
  for (const r of receivers) r.answer('hang')
  const a = await server('server-a', { parallel: 2, idleCheckMs: 500 })
  const b = await server('server-b', { parallel: 2, idleCheckMs: 500 })
  for (const [i, id] of hooks.entries()) await queue(a.store, id, receivers[i]!.url, [`${id}-1`, `${id}-2`, `${id}-3`])
  a.deliverer.start()
  b.deliverer.start()

  await expect.poll(() => receivers.map((r) => r.received.length), { timeout: 15_000 }).toEqual([1, 1, 1, 1])
  expect([a.sent(), b.sent()]).toEqual([2, 2])
  // More is queued while they run, with no kick: the lanes, or the servers' own timers, find it.
  for (const [i, id] of hooks.entries()) await queue(b.store, id, receivers[i]!.url, [`${id}-4`, `${id}-5`])
  for (const r of receivers) r.release(200)

  const accepted = (r: Receiver) => r.received.filter((d) => d.status === 200).length
  await expect.poll(() => receivers.map(accepted), { timeout: 20_000 }).toEqual([5, 5, 5, 5])
  for (const [i, id] of hooks.entries()) expect(keysOf(receivers[i]!), id).toEqual([1, 2, 3, 4, 5].map((n) => `${id}-${n}`))
  // The last answers are recorded just after the receiver gave them.
  await expect.poll(() => a.store.read.webhooks.pending()).toEqual({ count: 0, oldestQueuedAt: null })
  expect(a.sent() + b.sent()).toBe(20)
  // Every lane has ended; what is queued now is found by a server's own look at the outbox.
  await queue(a.store, 'w1', receivers[0]!.url, ['w1-6'])
  await expect.poll(() => keysOf(receivers[0]!).at(-1), { timeout: 10_000 }).toBe('w1-6')
  expect(keysOf(receivers[0]!).length).toBe(6)
}, 60_000)

it('a server killed holding a claim leaves it; the other sends that delivery again once the claim has run out, then the next', async () => {
  const r = await receiver()
  r.answer('hang')
  const b = await server('server-b')
  await queue(b.store, 'w1', r.url, ['fired-1', 'resolved-1'])

  const script = join(ROOT, 'test', 'support', 'processes', 'deliver-outbox.ts')
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, database.url, 'server-a', '5000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
  cleanups.push(() => void child.kill('SIGKILL'))
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
  await expect.poll(() => r.received.length, { timeout: 30_000, message: stderr }).toBe(1)
  const [claimed] = await query<{ claimed_by: string; claimed_until: number }>("SELECT claimed_by, claimed_until::float8 AS claimed_until FROM webhook_outbox WHERE idempotency_key = 'fired-1'")
  expect(claimed?.claimed_by).toBe('server-a')
  child.kill('SIGKILL')
  expect(await exited).toBe('SIGKILL')

  // Server B runs on its own timer (no kick): nothing goes out while A's claim stands.
  b.deliverer.start()
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, claimed!.claimed_until - 500 - Date.now())))
  expect(keysOf(r), 'sent again while the dead server’s claim still stood').toEqual(['fired-1'])
  await expect.poll(() => r.received.filter((d) => d.status === 200).length, { timeout: 15_000 }).toBe(2)
  expect(keysOf(r)).toEqual(['fired-1', 'fired-1', 'resolved-1'])
  expect(r.received[0]!.status).toBe(0) // A died before the receiver answered it
  expect(await b.store.read.webhooks.stats('w1')).toMatchObject({ pending: 0, failed: 0, lastError: null })
}, 60_000)

it('a late answer to a server whose claim ran out does not overwrite the outcome of the server that took it', async () => {
  const r = await receiver()
  r.answer('hang', 503) // A's request is held; B's is refused
  const a = await server('server-a', { claimMs: 1000 })
  await queue(a.store, 'w1', r.url, ['fired-1'])
  a.deliverer.start()
  await expect.poll(() => r.received.length).toBe(1)

  // B takes the delivery once A's claim has run out, and is held before it sends (a slow keychain).
  let asked!: () => void
  const bAsked = new Promise<void>((resolve) => (asked = resolve))
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  const b = await server('server-b', {
    urlOf: async (hook) => {
      asked()
      await gate
      return hook.url
    }
  })
  b.deliverer.start()
  await bAsked

  // A's answer comes now, while B holds the claim: A's "delivered" is refused.
  r.release(200)
  await a.deliverer.runOnce()
  expect(await a.store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: null, lastError: null })

  // B's outcome is the one on record, and its line in Diagnostics.
  open()
  await expect.poll(() => r.received.length).toBe(2)
  await b.deliverer.runOnce()
  expect(keysOf(r)).toEqual(['fired-1', 'fired-1'])
  expect(await b.store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: null, lastError: 'HTTP 503 from the receiver' })
  const lines = (await b.store.read.runs.diagnostics(10)).filter((d) => d.endpoint === 'webhook hook w1')
  expect(lines.map((d) => d.message)).toEqual([expect.stringMatching(/^delivery of fired \(fired-1\) failed: HTTP 503 from the receiver; trying again in/)])
}, 30_000)
