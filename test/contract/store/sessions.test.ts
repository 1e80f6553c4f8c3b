// Sessions and snapshots: what each poll stored, read back by the board, the rules and History.
import { expect, it } from 'vitest'
import { MAX_PAGE } from '../../../src/main/core/store/interface/viewers'
import { eachBackend } from './backends'
import { MINUTE, sessionRecord, T0, withConnection } from './fixtures'

eachBackend('sessions and snapshots', (subject) => {
  it('stores a poll’s list and reads the live sessions back, per connection and in all', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await withConnection(store, 'B')
    await store.withTransaction(async (tx) => {
      await tx.sessions.storeList('A', [sessionRecord('a1', T0), sessionRecord('a2', T0 + MINUTE, { viewersCount: 7 })], T0 + 2 * MINUTE)
      await tx.sessions.storeList('B', [sessionRecord('b1', T0), sessionRecord('b-ended', T0, { hasEnded: true })], T0 + 2 * MINUTE)
    })
    expect((await store.read.sessions.live('A')).map((s) => s.event_session_id).sort()).toEqual(['a1', 'a2'])
    expect((await store.read.sessions.live()).map((s) => s.event_session_id).sort()).toEqual(['a1', 'a2', 'b1'])
    expect((await store.read.sessions.liveIds('B')).sort()).toEqual(['b1'])
    const row = await store.read.sessions.row('A', 'a2')
    expect(row).toMatchObject({ connection_id: 'A', event_name: 'Event a2', viewers_count: 7, has_ended: 0, last_polled_at: T0 + 2 * MINUTE })
    expect(await store.read.sessions.row('A', 'b1')).toBeNull()
    expect(await store.read.sessions.newestPollAt('A')).toBe(T0 + 2 * MINUTE)
    expect(await store.read.sessions.newestPollAt('nobody')).toBeNull()
  })

  it('never lets an older record replace a newer one', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const newer = sessionRecord('s', T0, { updatedAt: new Date(T0 + 5 * MINUTE).toISOString(), viewersCount: 50 })
    const older = sessionRecord('s', T0, { updatedAt: new Date(T0 + MINUTE).toISOString(), viewersCount: 10 })
    await store.withTransaction((tx) => tx.sessions.storeList('A', [newer], T0 + 5 * MINUTE))
    await store.withTransaction((tx) => tx.sessions.storeList('A', [older], T0 + 6 * MINUTE))
    expect((await store.read.sessions.row('A', 's'))?.viewers_count).toBe(50)
  })

  it('keeps one snapshot per poll, and reads a window of them oldest first', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const polls = [3, 1, 4, 2].map((m) => T0 + m * MINUTE)
    for (const at of polls) {
      await store.withTransaction((tx) =>
        tx.sessions.storeSnapshot('A', sessionRecord('s', T0, { updatedAt: new Date(at).toISOString(), viewersCount: at / MINUTE }), at)
      )
    }
    const since = await store.read.snapshots.since('A', 's', T0 + 2 * MINUTE)
    expect(since.map((p) => p.takenAt)).toEqual([2, 3, 4].map((m) => T0 + m * MINUTE))
    expect((await store.read.snapshots.latest('A', 's'))?.takenAt).toBe(T0 + 4 * MINUTE)
    expect(await store.read.snapshots.latest('A', 'none')).toBeNull()
  })

  it('draws a chart of at most maxPoints points however many snapshots there are', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await store.withTransaction(async (tx) => {
      for (let i = 0; i < 300; i++) await tx.sessions.storeSnapshot('A', sessionRecord('s', T0), T0 + i * 15_000)
    })
    const whole = await store.read.snapshots.chart('A', 's')
    expect(whole).toMatchObject({ total: 300, bucketed: false })
    expect(whole.points).toHaveLength(300)
    const bounded = await store.read.snapshots.chart('A', 's', { maxPoints: 50 })
    expect(bounded.total).toBe(300)
    expect(bounded.points.length).toBeLessThanOrEqual(50)
    expect(bounded.points.reduce((n, p) => n + p.samples, 0)).toBe(300)
  })

  it('pages past sessions: each page bounded, no session on two pages, every one on some page', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const ended = Array.from({ length: 1_050 }, (_, i) => sessionRecord(`s${i}`, T0 - i * MINUTE, { hasEnded: true }))
    await store.withTransaction((tx) => tx.sessions.storeList('A', ended, T0))
    const first = await store.read.sessions.past({ sort: 'started', descending: true, limit: 400 })
    expect(first.total).toBe(1_050)
    expect(first.rows[0]?.eventSessionId).toBe('s0')
    const seen: string[] = []
    for (let offset = 0; offset < 1_050; offset += 400) {
      const page = await store.read.sessions.past({ sort: 'started', descending: true, limit: 400, offset })
      expect(page.rows.length).toBeLessThanOrEqual(400)
      seen.push(...page.rows.map((r) => r.eventSessionId))
    }
    expect(seen).toEqual(ended.map((r) => r.eventSessionId))
    // No page holds more than the most a page may: asking for more gets that most.
    expect((await store.read.sessions.past({ sort: 'started', limit: 5_000 })).rows).toHaveLength(1_000)
  })

  it('counts the sessions cached and those of them live, across connections', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await withConnection(store, 'B')
    expect(await store.read.sessions.counts()).toEqual({ stored: 0, live: 0 })
    await store.withTransaction(async (tx) => {
      await tx.sessions.storeList('A', [sessionRecord('a1', T0), sessionRecord('a-ended', T0, { hasEnded: true })], T0)
      await tx.sessions.storeList('B', [sessionRecord('b1', T0)], T0)
    })
    expect(await store.read.sessions.counts()).toEqual({ stored: 3, live: 2 })
  })

  it('exports a session under the API’s field names, and its snapshots a bounded window at a time', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    const polls = Array.from({ length: 1_005 }, (_, i) => T0 + i * MINUTE)
    await store.withTransaction(async (tx) => {
      for (const at of polls) await tx.sessions.storeSnapshot('A', sessionRecord('s', T0, { updatedAt: new Date(at).toISOString() }), at)
    })
    expect(await store.read.sessions.exported('A', 's')).toMatchObject({ eventSessionId: 's', eventName: 'Event s', hasEnded: false })
    expect(await store.read.sessions.exported('A', 'none')).toBeNull()
    const second = await store.read.snapshots.exportWindow({ connectionId: 'A', eventSessionId: 's', offset: 1, limit: 2 })
    expect(second.total).toBe(1_005)
    expect(second.records).toHaveLength(2)
    // As much as asked, up to a page: never the whole session's snapshots at once.
    const all = await store.read.snapshots.exportWindow({ connectionId: 'A', eventSessionId: 's', offset: 0, limit: 5_000 })
    expect(all.records).toHaveLength(MAX_PAGE)
    expect(all.total).toBe(1_005)
  })

  it('pages every session as export writes it, oldest start first, never more than a page', async () => {
    const { store } = subject()
    await withConnection(store, 'A')
    await withConnection(store, 'B')
    await store.withTransaction(async (tx) => {
      await tx.sessions.storeList('A', [sessionRecord('late', T0 + 2 * MINUTE), sessionRecord('early', T0)], T0)
      await tx.sessions.storeList('B', [sessionRecord('middle', T0 + MINUTE, { hasEnded: true })], T0)
    })
    const first = await store.read.sessions.exportedPage({ offset: 0, limit: 2 })
    expect(first.map((r) => [r['eventSessionId'], r['hasEnded']])).toEqual([['early', false], ['middle', true]])
    expect((await store.read.sessions.exportedPage({ offset: 2, limit: 2 })).map((r) => r['eventSessionId'])).toEqual(['late'])
    expect(await store.read.sessions.exportedPage({ offset: 3, limit: 2 })).toEqual([])
    expect(await store.read.sessions.exportedPage({ offset: 0, limit: 5_000 })).toHaveLength(3)
  })
})
