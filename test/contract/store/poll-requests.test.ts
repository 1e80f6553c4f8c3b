// Poll requests (docs/scaling-plan.md section 2, "Requests that reach into a poller"): a server
// asks the holder of a connection to run something with its poller through a row. Here two
// stores on one database stand for the asking server and the holder: a request is claimed once,
// only by the connection's lease holder, answered to its asker; one withdrawn or run out is
// never claimed; a claimed one cannot be withdrawn; retention forgets answered ones. Not
// applicable to SQLite (one server per file asks nobody: backends.ts says so).
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, it } from 'vitest'
import { connectionLease, LeaseLostError, type Lease } from '../../../src/main/core/store/interface/leases'
import type { NewPollRequest } from '../../../src/main/core/store/interface/poll-requests'
import type { Store } from '../../../src/main/core/store/interface/store'
import { eachBackend } from './backends'
import { withConnection } from './fixtures'

const ASKER = 'host-a:101:aaaa'
const HOLDER = 'host-b:202:bbbb'
const MINUTE = 60_000

const request = (over: Partial<NewPollRequest> = {}): NewPollRequest => ({
  connectionId: 'X',
  kind: 'refreshSession',
  arguments: { eventSessionId: 's1' },
  actor: 'alice',
  askedBy: ASKER,
  deadlineMs: MINUTE,
  ...over
})

const ask = (store: Store, over: Partial<NewPollRequest> = {}): Promise<number> => store.withTransaction((tx) => tx.pollRequests.ask(request(over)))

async function holding(store: Store, connectionId: string): Promise<Lease> {
  const lease = await store.leases!.acquire(connectionLease(connectionId), HOLDER, MINUTE)
  expect(lease).not.toBeNull()
  return lease!
}

const claim = (store: Store, lease: Lease, connectionId = 'X') =>
  store.withTransaction((tx) => tx.pollRequests.claim(connectionId, lease.holder), { fence: lease })

eachBackend('pollRequests', (subject) => {
  it('keeps a request as asked, unclaimed and unanswered, on the database’s clock', async () => {
    const { store } = subject()
    await withConnection(store, 'X')
    const before = Date.now()
    const id = await ask(store, { kind: 'fetchRange', arguments: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' } })
    const asked = await store.read.pollRequests.get(id)
    expect(asked).toMatchObject({
      id,
      connectionId: 'X',
      kind: 'fetchRange',
      arguments: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' },
      actor: 'alice',
      askedBy: ASKER,
      claimedBy: null,
      answeredAt: null,
      answer: null,
      error: null
    })
    // The database's clock and the test's are one machine's here.
    expect(asked!.createdAt).toBeGreaterThanOrEqual(before - 1000)
    expect(asked!.expiresAt - asked!.createdAt).toBe(MINUTE)
    expect(await store.read.pollRequests.get(id + 1000)).toBeNull()
  })

  it('lets the holder claim each waiting request of its connection once, oldest first, and answer it to the asker', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    await withConnection(store, 'Y')
    const holder = await openOther()
    const lease = await holding(holder, 'X')
    const first = await ask(store)
    const second = await ask(store, { kind: 'refresh', arguments: null, actor: null })
    await ask(store, { connectionId: 'Y' })

    const claimed = await claim(holder, lease)
    expect(claimed.map((r) => [r.id, r.kind, r.claimedBy])).toEqual([
      [first, 'refreshSession', HOLDER],
      [second, 'refresh', HOLDER]
    ])
    expect(await claim(holder, lease)).toEqual([])

    expect(await holder.withTransaction((tx) => tx.pollRequests.answer(first, HOLDER, { answer: { viewers: 20 } }))).toBe(true)
    expect(await holder.withTransaction((tx) => tx.pollRequests.answer(second, HOLDER, { error: 'the service answered 503' }))).toBe(true)
    // Answered once: a second answer, or one from a server that did not claim it, is refused.
    expect(await holder.withTransaction((tx) => tx.pollRequests.answer(first, HOLDER, { answer: { viewers: 1 } }))).toBe(false)
    expect(await store.read.pollRequests.get(first)).toMatchObject({ claimedBy: HOLDER, answer: { viewers: 20 }, error: null, answeredAt: expect.any(Number) })
    expect(await store.read.pollRequests.get(second)).toMatchObject({ answer: null, error: 'the service answered 503' })
  })

  it('never lets two claims take the same request, however they interleave', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const ids = await Promise.all(Array.from({ length: 8 }, () => ask(store)))
    const others = [await openOther(), await openOther()]
    const lease = await holding(others[0]!, 'X')
    // Two stores claiming under one lease, as a holder hearing a notification and picking up its
    // takeover at once would.
    const claims = await Promise.all([0, 1, 0, 1].map((i) => claim(others[i]!, lease)))
    const claimed = claims.flat().map((r) => r.id)
    expect(claimed.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b))
  })

  it('lets only the connection’s lease holder claim: a unit fenced with a lost lease claims nothing', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const holder = await openOther()
    const old = await holder.leases!.acquire(connectionLease('X'), HOLDER, 1)
    await sleep(20)
    await store.leases!.acquire(connectionLease('X'), ASKER, MINUTE)
    const id = await ask(store)
    await expect(claim(holder, old!)).rejects.toBeInstanceOf(LeaseLostError)
    expect(await store.read.pollRequests.get(id)).toMatchObject({ claimedBy: null })
  })

  it('never claims a request withdrawn by its asker, or one whose deadline passed', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const holder = await openOther()
    const lease = await holding(holder, 'X')
    const withdrawn = await ask(store)
    const ranOut = await ask(store, { deadlineMs: 1 })
    expect(await store.withTransaction((tx) => tx.pollRequests.withdraw(withdrawn, 'nobody answered within 30 s'))).toBe(true)
    await sleep(20)
    expect(await claim(holder, lease)).toEqual([])
    expect(await store.read.pollRequests.get(withdrawn)).toMatchObject({ claimedBy: null, answeredAt: expect.any(Number), error: 'nobody answered within 30 s' })
    expect(await store.read.pollRequests.get(ranOut)).toMatchObject({ claimedBy: null, answeredAt: null })
  })

  it('refuses to withdraw a request once claimed: it is running, and its answer stands', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const holder = await openOther()
    const lease = await holding(holder, 'X')
    const id = await ask(store)
    await claim(holder, lease)
    expect(await store.withTransaction((tx) => tx.pollRequests.withdraw(id, 'gave up'))).toBe(false)
    expect(await holder.withTransaction((tx) => tx.pollRequests.answer(id, HOLDER, { answer: { viewers: 3 } }))).toBe(true)
    expect(await store.withTransaction((tx) => tx.pollRequests.withdraw(id, 'gave up'))).toBe(false)
    expect(await store.read.pollRequests.get(id)).toMatchObject({ answer: { viewers: 3 }, error: null })
  })

  it('notifies the holder of a request and the asker of its answer, when the units commit', async () => {
    const { store, openOther } = subject()
    await withConnection(store, 'X')
    const holder = await openOther()
    const lease = await holding(holder, 'X')
    const heard: string[] = []
    const listen = (s: Store, channel: 'ew_poll_requests' | 'ew_poll_answers') =>
      s.notifications!.listen(channel, { notified: (payload) => heard.push(`${channel} ${payload}`), resumed: () => undefined })
    const stops = [await listen(holder, 'ew_poll_requests'), await listen(store, 'ew_poll_answers')]
    const id = await store.withTransaction(async (tx) => {
      const asked = await tx.pollRequests.ask(request())
      await tx.notifications.send('ew_poll_requests', 'X')
      return asked
    })
    await claim(holder, lease)
    await holder.withTransaction(async (tx) => {
      await tx.pollRequests.answer(id, HOLDER, { answer: { viewers: 20 } })
      await tx.notifications.send('ew_poll_answers', String(id))
    })
    for (let i = 0; i < 100 && heard.length < 2; i++) await sleep(20)
    expect(heard).toEqual(['ew_poll_requests X', `ew_poll_answers ${id}`])
    for (const stop of stops) await stop()
  })

  it('goes with its connection', async () => {
    const { store } = subject()
    await withConnection(store, 'X')
    const id = await ask(store)
    await store.withTransaction((tx) => tx.connections.remove('X'))
    expect(await store.read.pollRequests.get(id)).toBeNull()
  })

  it('is forgotten by retention once answered (or run out) before the cutoff, a batch at a time', async () => {
    const { store } = subject()
    await withConnection(store, 'X')
    const answered = [await ask(store), await ask(store), await ask(store)]
    for (const id of answered) await store.withTransaction((tx) => tx.pollRequests.withdraw(id, 'gave up'))
    const ranOut = await ask(store, { deadlineMs: 1 })
    const waiting = await ask(store)
    await sleep(20)
    const prune = () => store.withTransaction((tx) => tx.retention.prunePollRequests(Date.now() + 1000, 2))
    expect([await prune(), await prune(), await prune()]).toEqual([2, 2, 0])
    expect(await store.read.pollRequests.get(ranOut)).toBeNull()
    expect(await store.read.pollRequests.get(waiting)).toMatchObject({ id: waiting })
    // Nothing answered before an hour ago: nothing goes.
    expect(await store.withTransaction((tx) => tx.retention.prunePollRequests(Date.now() - 60 * MINUTE, 10))).toBe(0)
  })
})
