// Webhooks and their outbox: each delivery queued once, sent in order, one head per webhook,
// claimed before it is sent so that several deliverers (stores on one database) send it once.
import { expect, it } from 'vitest'
import type { ClaimedDelivery, NewDelivery } from '../../../src/main/core/store/interface/webhooks'
import type { Store } from '../../../src/main/core/store/interface/store'
import { eachBackend } from './backends'
import { MINUTE, T0 } from './fixtures'

const settings = (name: string) => ({ name, url: `https://hooks.example.com/${name}`, format: 'json' as const })
const kept = { signed: false, queryInKeychain: false }
const delivery = (webhookId: string, key: string): NewDelivery => ({ webhookId, idempotencyKey: key, event: 'fired', alertId: null, body: `{"key":"${key}"}` })

/** The webhook's head claimed at `now` by `by` for a minute, as a deliverer claims it: in a unit of its own. */
const claim = (store: Store, webhookId: string, now: number, by = 'me'): Promise<ClaimedDelivery | null> =>
  store.withTransaction((tx) => tx.webhooks.claimHead(webhookId, now, { by, until: now + MINUTE }))
const delivered = (store: Store, item: ClaimedDelivery | null, now: number): Promise<boolean> =>
  store.withTransaction((tx) => tx.webhooks.delivered(item!, now))
const failed = (store: Store, item: ClaimedDelivery | null, error: string, now: number, retryAt: number | null): Promise<boolean> =>
  store.withTransaction((tx) => tx.webhooks.failed(item!, error, now, retryAt))

eachBackend('webhooks and the outbox', (subject) => {
  it('adds webhooks and finds them by id and by name (any case)', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.add(settings('chat'), { signed: true, queryInKeychain: false }, 'w2', T0)
    })
    expect((await store.read.webhooks.list()).map((w) => w.name)).toEqual(['chat', 'Pager'])
    expect(await store.read.webhooks.get('w2')).toMatchObject({ name: 'chat', signed: true, format: 'json' })
    expect((await store.read.webhooks.findByName('PAGER'))?.id).toBe('w1')
    expect(await store.read.webhooks.get('nope')).toBeNull()
  })

  it('queues a delivery once per key, and hands out a webhook’s oldest first', async () => {
    const { store } = subject()
    await store.withTransaction((tx) => tx.webhooks.add(settings('Pager'), kept, 'w1', T0))
    const queued = await store.withTransaction(async (tx) => [
      await tx.webhooks.enqueue(delivery('w1', 'fire-1'), T0),
      await tx.webhooks.enqueue(delivery('w1', 'resolve-1'), T0 + MINUTE),
      await tx.webhooks.enqueue(delivery('w1', 'fire-1'), T0 + 2 * MINUTE)
    ])
    expect(queued).toEqual([true, true, false])
    expect(await store.read.webhooks.outboxHeads()).toEqual([{ webhookId: 'w1', dueAt: T0, claimedUntil: null }])
    const head = await claim(store, 'w1', T0 + 5 * MINUTE)
    expect(head).toMatchObject({ idempotencyKey: 'fire-1', event: 'fired', body: '{"key":"fire-1"}', attempts: 0, createdAt: T0 })
    expect(head?.claim).toEqual({ by: 'me', until: T0 + 6 * MINUTE })
    expect(await store.read.webhooks.outboxHeads()).toEqual([{ webhookId: 'w1', dueAt: T0, claimedUntil: T0 + 6 * MINUTE }])
    // While the head is claimed, neither it nor the delivery behind it is handed out.
    expect(await claim(store, 'w1', T0 + 5 * MINUTE, 'another')).toBeNull()
    expect(await delivered(store, head, T0 + 5 * MINUTE)).toBe(true)
    expect((await claim(store, 'w1', T0 + 5 * MINUTE))?.idempotencyKey).toBe('resolve-1')
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: T0 + 5 * MINUTE, lastError: null })
  })

  it('keeps the on-call formats, and the path a delivery goes to under its webhook (Opsgenie\'s acknowledge and close)', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add({ ...settings('Pager'), format: 'pagerduty' }, { signed: true, queryInKeychain: false }, 'w1', T0)
      await tx.webhooks.add({ ...settings('Genie'), format: 'opsgenie' }, { signed: true, queryInKeychain: false }, 'w2', T0)
      await tx.webhooks.enqueue(delivery('w1', 'fire'), T0)
      await tx.webhooks.enqueue({ ...delivery('w2', 'close'), event: 'resolved', path: '/v2/alerts/eventwatch-alert-1-ab/close?identifierType=alias' }, T0)
    })
    expect((await store.read.webhooks.list()).map((w) => [w.name, w.format, w.signed])).toEqual([['Genie', 'opsgenie', true], ['Pager', 'pagerduty', true]])
    expect(await claim(store, 'w1', T0)).toMatchObject({ idempotencyKey: 'fire', path: null })
    expect(await claim(store, 'w2', T0)).toMatchObject({ idempotencyKey: 'close', event: 'resolved', path: '/v2/alerts/eventwatch-alert-1-ab/close?identifierType=alias' })
  })

  it('waits for a retry after a failure, and counts one given up on', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.enqueue(delivery('w1', 'k'), T0)
    })
    expect(await failed(store, await claim(store, 'w1', T0), 'HTTP 503', T0, T0 + 10 * MINUTE)).toBe(true)
    // The failure ended the claim; the head waits for its retry, not for a claim.
    expect(await store.read.webhooks.outboxHeads()).toEqual([{ webhookId: 'w1', dueAt: T0 + 10 * MINUTE, claimedUntil: null }])
    expect(await claim(store, 'w1', T0 + MINUTE)).toBeNull()
    const retried = await claim(store, 'w1', T0 + 10 * MINUTE)
    expect(retried?.attempts).toBe(1)
    expect(await failed(store, retried, 'HTTP 503 again', T0 + 10 * MINUTE, null)).toBe(true)
    expect(await store.read.webhooks.stats('w1')).toMatchObject({ pending: 0, failed: 1, lastError: 'HTTP 503 again' })
  })

  it('counts the deliveries waiting over every webhook, and says when the oldest was queued', async () => {
    const { store } = subject()
    expect(await store.read.webhooks.pending()).toEqual({ count: 0, oldestQueuedAt: null })
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.add(settings('chat'), kept, 'w2', T0)
      await tx.webhooks.enqueue(delivery('w1', 'a'), T0 + MINUTE)
      await tx.webhooks.enqueue(delivery('w2', 'b'), T0 + 2 * MINUTE)
      await tx.webhooks.enqueue(delivery('w2', 'c'), T0 + 3 * MINUTE)
    })
    expect(await store.read.webhooks.pending()).toEqual({ count: 3, oldestQueuedAt: T0 + MINUTE })
    // Delivered, and given up on: neither waits any more.
    await delivered(store, await claim(store, 'w1', T0 + 5 * MINUTE), T0 + 5 * MINUTE)
    await failed(store, await claim(store, 'w2', T0 + 5 * MINUTE), 'HTTP 410', T0 + 5 * MINUTE, null)
    expect(await store.read.webhooks.pending()).toEqual({ count: 1, oldestQueuedAt: T0 + 3 * MINUTE })
    // A retry still waits.
    await failed(store, await claim(store, 'w2', T0 + 5 * MINUTE), 'HTTP 503', T0 + 5 * MINUTE, T0 + 6 * MINUTE)
    expect(await store.read.webhooks.pending()).toEqual({ count: 1, oldestQueuedAt: T0 + 3 * MINUTE })
  })

  it('takes a webhook’s waiting deliveries with it when removed', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.enqueue(delivery('w1', 'k'), T0)
    })
    expect(await store.withTransaction((tx) => tx.webhooks.remove('w1'))).toBe(true)
    expect(await store.withTransaction((tx) => tx.webhooks.remove('w1'))).toBe(false)
    expect(await store.read.webhooks.outboxHeads()).toEqual([])
  })

  it('prunes delivered and given-up deliveries older than the cut, and keeps what still waits', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.add(settings('chat'), kept, 'w2', T0)
      for (const key of ['old-sent', 'new-sent', 'waiting']) await tx.webhooks.enqueue(delivery('w1', key), T0)
      await tx.webhooks.enqueue(delivery('w2', 'old-given-up'), T0)
    })
    await delivered(store, await claim(store, 'w1', T0), T0 + MINUTE)
    await failed(store, await claim(store, 'w2', T0), 'HTTP 410', T0 + MINUTE, null)
    await delivered(store, await claim(store, 'w1', T0), T0 + 10 * MINUTE)

    expect(await store.withTransaction((tx) => tx.webhooks.prune(T0 + 5 * MINUTE))).toBe(2)
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: T0 + 10 * MINUTE, lastError: null })
    expect(await store.read.webhooks.stats('w2')).toEqual({ pending: 0, failed: 0, lastDeliveredAt: null, lastError: null })
    expect((await claim(store, 'w1', T0))?.idempotencyKey).toBe('waiting')
    expect(await store.withTransaction((tx) => tx.webhooks.prune(T0 + 5 * MINUTE))).toBe(0)
  })

  it('hands two stores claiming in the same round never the same delivery, and each webhook’s in the order queued', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    const hooks = ['w1', 'w2', 'w3', 'w4']
    await store.withTransaction(async (tx) => {
      for (const id of hooks) await tx.webhooks.add(settings(`hook ${id}`), kept, id, T0)
      for (const step of [1, 2, 3]) for (const id of hooks) await tx.webhooks.enqueue(delivery(id, `${id}-${step}`), T0)
    })
    const sent = new Map<string, string[]>(hooks.map((id) => [id, []]))
    for (let round = 1; round <= 4; round++) {
      const now = T0 + round * MINUTE
      // Both stores reach for every webhook's head in the same round, before anything is sent, as
      // two servers' deliverers would (one after the other: two SQLite stores on one thread cannot
      // hold units at once; the PostgreSQL race is in test/integration/store-postgres-outbox.test.ts).
      const servers = round % 2 ? [store, other] : [other, store]
      const won: { s: Store; item: ClaimedDelivery }[] = []
      for (const id of hooks) {
        for (const [i, s] of servers.entries()) {
          const item = await claim(s, id, now, `server-${i}`)
          if (item) won.push({ s, item })
        }
      }
      expect(new Set(won.map((c) => c.item.id)).size, `round ${round}: a delivery was claimed twice`).toBe(won.length)
      expect(new Set(won.map((c) => c.item.webhookId)).size, `round ${round}: a webhook had two claims`).toBe(won.length)
      for (const { s, item } of won) {
        sent.get(item.webhookId)!.push(item.idempotencyKey)
        expect(await delivered(s, item, now)).toBe(true)
      }
    }
    for (const id of hooks) expect(sent.get(id)).toEqual([`${id}-1`, `${id}-2`, `${id}-3`])
    expect(await store.read.webhooks.pending()).toEqual({ count: 0, oldestQueuedAt: null })
  })

  it('takes a claim that ran out again; the first claimer’s late outcome is refused and the new one’s stands', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.enqueue(delivery('w1', 'fire-1'), T0)
      await tx.webhooks.enqueue(delivery('w1', 'resolve-1'), T0)
    })
    const first = await claim(store, 'w1', T0, 'server-a')
    expect(await claim(other, 'w1', T0 + MINUTE - 1, 'server-b'), 'a claim still standing was taken').toBeNull()
    // Its minute is up: server B takes the same delivery, server A's claim no longer stands.
    const second = await claim(other, 'w1', T0 + MINUTE, 'server-b')
    expect(second).toMatchObject({ id: first!.id, idempotencyKey: 'fire-1', claim: { by: 'server-b', until: T0 + 2 * MINUTE } })
    expect(await delivered(store, first, T0 + MINUTE + 1)).toBe(false)
    expect(await failed(store, first, 'HTTP 503', T0 + MINUTE + 1, T0 + 5 * MINUTE)).toBe(false)
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 2, failed: 0, lastDeliveredAt: null, lastError: null })
    expect(await failed(other, second, 'HTTP 502', T0 + MINUTE + 2, T0 + 3 * MINUTE)).toBe(true)
    // B's outcome stands; A's answer, later still, does not overwrite it either.
    expect(await delivered(store, first, T0 + MINUTE + 3)).toBe(false)
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 2, failed: 0, lastDeliveredAt: null, lastError: 'HTTP 502' })
    expect(await store.read.webhooks.outboxHeads()).toEqual([{ webhookId: 'w1', dueAt: T0 + 3 * MINUTE, claimedUntil: null }])
    // A claim that ran out and that nobody took still records its outcome: it was the last one made.
    const third = await claim(store, 'w1', T0 + 3 * MINUTE, 'server-a')
    expect(third?.attempts).toBe(1)
    expect(await delivered(store, third, T0 + 10 * MINUTE)).toBe(true)
    expect((await claim(other, 'w1', T0 + 10 * MINUTE, 'server-b'))?.idempotencyKey).toBe('resolve-1')
  })

  it('releases what a stopping deliverer still claims, for another to take at once', async () => {
    const { store, openOther } = subject()
    const other = await openOther()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.add(settings('chat'), kept, 'w2', T0)
      await tx.webhooks.enqueue(delivery('w1', 'a'), T0)
      await tx.webhooks.enqueue(delivery('w2', 'b'), T0)
    })
    const held = [await claim(store, 'w1', T0, 'server-a'), await claim(store, 'w2', T0, 'server-a')]
    expect(await delivered(store, held[1]!, T0)).toBe(true)
    expect(await claim(other, 'w1', T0, 'server-b')).toBeNull()
    expect(await other.withTransaction((tx) => tx.webhooks.release('server-b'))).toBe(0)
    expect(await store.withTransaction((tx) => tx.webhooks.release('server-a'))).toBe(1)
    const taken = await claim(other, 'w1', T0, 'server-b')
    expect(taken?.idempotencyKey).toBe('a')
    // Released, the old claim records nothing.
    expect(await delivered(store, held[0]!, T0)).toBe(false)
    expect(await delivered(other, taken, T0)).toBe(true)
  })
})
