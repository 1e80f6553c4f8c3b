// Webhooks and their outbox: each delivery queued once, sent in order, one head per webhook.
import { expect, it } from 'vitest'
import type { NewDelivery } from '../../../src/main/core/store/interface/webhooks'
import { eachBackend } from './backends'
import { MINUTE, T0 } from './fixtures'

const settings = (name: string) => ({ name, url: `https://hooks.example.com/${name}`, format: 'json' as const })
const kept = { signed: false, queryInKeychain: false }
const delivery = (webhookId: string, key: string): NewDelivery => ({ webhookId, idempotencyKey: key, event: 'fired', alertId: null, body: `{"key":"${key}"}` })

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
    expect(await store.read.webhooks.outboxHeads()).toEqual([{ webhookId: 'w1', dueAt: T0 }])
    const head = await store.read.webhooks.dueHead('w1', T0 + 5 * MINUTE)
    expect(head?.idempotencyKey).toBe('fire-1')
    await store.withTransaction((tx) => tx.webhooks.delivered(head!.id, T0 + 5 * MINUTE))
    expect((await store.read.webhooks.dueHead('w1', T0 + 5 * MINUTE))?.idempotencyKey).toBe('resolve-1')
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: T0 + 5 * MINUTE, lastError: null })
  })

  it('waits for a retry after a failure, and counts one given up on', async () => {
    const { store } = subject()
    await store.withTransaction(async (tx) => {
      await tx.webhooks.add(settings('Pager'), kept, 'w1', T0)
      await tx.webhooks.enqueue(delivery('w1', 'k'), T0)
    })
    const head = await store.read.webhooks.dueHead('w1', T0)
    await store.withTransaction((tx) => tx.webhooks.failed(head!.id, 'HTTP 503', T0, T0 + 10 * MINUTE))
    expect(await store.read.webhooks.dueHead('w1', T0 + MINUTE)).toBeNull()
    expect((await store.read.webhooks.dueHead('w1', T0 + 10 * MINUTE))?.attempts).toBe(1)
    await store.withTransaction((tx) => tx.webhooks.failed(head!.id, 'HTTP 503 again', T0 + 10 * MINUTE, null))
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
    const first = await store.read.webhooks.dueHead('w1', T0 + 5 * MINUTE)
    const second = await store.read.webhooks.dueHead('w2', T0 + 5 * MINUTE)
    await store.withTransaction(async (tx) => {
      await tx.webhooks.delivered(first!.id, T0 + 5 * MINUTE)
      await tx.webhooks.failed(second!.id, 'HTTP 410', T0 + 5 * MINUTE, null)
    })
    expect(await store.read.webhooks.pending()).toEqual({ count: 1, oldestQueuedAt: T0 + 3 * MINUTE })
    // A retry still waits.
    const third = await store.read.webhooks.dueHead('w2', T0 + 5 * MINUTE)
    await store.withTransaction((tx) => tx.webhooks.failed(third!.id, 'HTTP 503', T0 + 5 * MINUTE, T0 + 6 * MINUTE))
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
    const head = async (id: string, now: number) => (await store.read.webhooks.dueHead(id, now))!.id
    const oldSent = await head('w1', T0)
    const oldGivenUp = await head('w2', T0)
    await store.withTransaction(async (tx) => {
      await tx.webhooks.delivered(oldSent, T0 + MINUTE)
      await tx.webhooks.failed(oldGivenUp, 'HTTP 410', T0 + MINUTE, null)
    })
    await store.withTransaction(async (tx) => tx.webhooks.delivered(await head('w1', T0), T0 + 10 * MINUTE))

    expect(await store.withTransaction((tx) => tx.webhooks.prune(T0 + 5 * MINUTE))).toBe(2)
    expect(await store.read.webhooks.stats('w1')).toEqual({ pending: 1, failed: 0, lastDeliveredAt: T0 + 10 * MINUTE, lastError: null })
    expect(await store.read.webhooks.stats('w2')).toEqual({ pending: 0, failed: 0, lastDeliveredAt: null, lastError: null })
    expect((await store.read.webhooks.dueHead('w1', T0))?.idempotencyKey).toBe('waiting')
    expect(await store.withTransaction((tx) => tx.webhooks.prune(T0 + 5 * MINUTE))).toBe(0)
  })
})
