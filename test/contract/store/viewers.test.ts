// Viewer lists read a page at a time: sorted, filtered and bounded, whatever the list's size.
import { expect, it } from 'vitest'
import { MAX_PAGE } from '../../../src/main/core/store/interface/viewers'
import { eachBackend } from './backends'
import { sessionRecord, T0, viewerRecord, withConnection } from './fixtures'

const LIST = 1_500

eachBackend('viewers', (subject) => {
  async function seeded() {
    const s = subject()
    await withConnection(s.store, 'A')
    await s.store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('big', T0)], T0))
    await s.seedViewerList('A', 'big', Array.from({ length: LIST }, (_, i) => viewerRecord(i, T0)), T0)
    return s
  }

  it('names the sessions whose list is stored', async () => {
    const { store } = await seeded()
    expect([...(await store.read.viewers.sessionsWithLists('A'))]).toEqual(['big'])
    expect([...(await store.read.viewers.sessionsWithLists('B'))]).toEqual([])
  })

  it("says when a session's list was fetched, and nothing for a session without one", async () => {
    const { store } = await seeded()
    expect(await store.read.viewers.listFetchedAt('A', 'big')).toBe(T0)
    expect(await store.read.viewers.listFetchedAt('A', 'none')).toBeNull()
  })

  it('pages a list in the order asked, each viewer on exactly one page', async () => {
    const { store } = await seeded()
    const seen: (number | null)[] = []
    const ids = new Set<string>()
    for (let offset = 0; offset < LIST; offset += 400) {
      const page = await store.read.viewers.page('A', 'big', { sort: 'reliabilityScore', descending: true, limit: 400, offset })
      expect(page.total).toBe(LIST)
      expect(page.rows.length).toBe(Math.min(400, LIST - offset))
      for (const row of page.rows) {
        seen.push(row.reliabilityScore)
        ids.add(row.viewerId)
      }
    }
    expect(ids.size).toBe(LIST)
    expect(seen).toEqual([...seen].sort((a, b) => (b ?? -1) - (a ?? -1)))
    const ascending = await store.read.viewers.page('A', 'big', { sort: 'reliabilityScore', limit: 3 })
    const lowest = Array.from({ length: LIST }, (_, i) => viewerRecord(i, T0).reliabilityScore as number).sort((a, b) => a - b)
    expect(ascending.rows.map((r) => r.reliabilityScore)).toEqual(lowest.slice(0, 3))
  })

  it('never puts more than a page in memory, however much is asked', async () => {
    const { store } = await seeded()
    const page = await store.read.viewers.page('A', 'big', { sort: 'viewerId', limit: LIST })
    expect(page.rows).toHaveLength(MAX_PAGE)
    expect(page.total).toBe(LIST)
    const window = await store.read.viewers.window({ connectionId: 'A', eventSessionId: 'big', offset: 0, limit: LIST })
    expect(window.records).toHaveLength(MAX_PAGE)
    expect(window.total).toBe(LIST)
  })

  it('filters a page and counts only the matching viewers', async () => {
    const { store } = await seeded()
    const page = await store.read.viewers.page('A', 'big', { sort: 'viewerId', filter: { siteCode: 3 }, limit: 1000 })
    expect(page.total).toBe(LIST / 10)
    expect(page.rows.every((r) => r.siteCode === 3)).toBe(true)
  })

  it('exports a list window by window, in start order, with every viewer once', async () => {
    const { store } = await seeded()
    const ids: string[] = []
    for (let offset = 0; offset < LIST; offset += 700) {
      const window = await store.read.viewers.window({ connectionId: 'A', eventSessionId: 'big', offset, limit: 700 })
      ids.push(...window.records.map((r) => String(r.viewerId)))
    }
    expect(ids).toEqual(Array.from({ length: LIST }, (_, i) => viewerRecord(i, T0).viewerId))
    expect(await store.read.viewers.window({ connectionId: 'A', eventSessionId: 'none', offset: 0, limit: 10 })).toEqual({ records: [], total: 0 })
  })

  it('breaks a list down by a dimension, the groups adding up to the list', async () => {
    const { store } = await seeded()
    const rows = await store.read.viewers.breakdown('A', 'big', 'deviceType')
    expect(Object.fromEntries(rows.map((r) => [r.key, r.viewers]))).toEqual({ desktop: LIST / 2, mobile: LIST / 2 })
  })

  it('reads one viewer by id with every field, and null for one the list does not hold', async () => {
    const { store } = await seeded()
    const viewer = await store.read.viewers.viewer('A', 'big', viewerRecord(42, T0).viewerId)
    expect(viewer).toMatchObject({ viewerId: viewerRecord(42, T0).viewerId, deviceType: 'desktop', reliabilityScore: viewerRecord(42, T0).reliabilityScore })
    expect(await store.read.viewers.viewer('A', 'big', 'nobody')).toBeNull()
    expect(await store.read.viewers.viewer('A', 'none', viewerRecord(42, T0).viewerId)).toBeNull()
  })
})
