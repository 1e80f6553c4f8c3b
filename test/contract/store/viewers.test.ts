// Viewer lists read a page at a time: sorted, filtered and bounded, whatever the list's size.
import { expect, it } from 'vitest'
import type { ViewerRecord } from '../../../src/main/core/api/schemas'
import { MAX_PAGE } from '../../../src/main/core/store/interface/viewers'
import { eachBackend } from './backends'
import { sessionRecord, T0, viewerRecord, withConnection } from './fixtures'

const LIST = 1_500
const SECOND = 1000
const at = (ms: number): string => new Date(T0 + ms).toISOString()

/** Ids that sort differently by case, by byte and by locale; two equal but for case; LIKE's wildcards. */
const NAMED = ['beta_2', 'Alpha', 'ärger', 'gamma%x', 'Dup', 'alpine', 'BETA', 'Ärger', 'dup', 'zeta']
const named = (id: string, i: number): ViewerRecord => ({
  viewerId: id,
  // Every third says nothing of its device: unknown sorts last, both ways.
  ...(i % 3 === 2 ? {} : { deviceType: i % 2 === 0 ? 'Desktop' : 'mobile' }),
  reliabilityScore: i,
  networkConnections: [{ siteCode: i % 2, publicIp: `198.51.100.${i}`, type: TYPES[i % TYPES.length] }]
})
/** Connection types as a service might send them: labelled by kind, type or name, a bare string, or as sent. */
const TYPES: unknown[] = [{ kind: 'wired', speed: 1 }, 'wifi', { name: 'cell', type: 'lte' }, { flag: true, z: [1, 2] }, { type: true }, [1, 2], 7]

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

  async function namedList() {
    const s = subject()
    await withConnection(s.store, 'A')
    await s.store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('named', T0)], T0))
    await s.seedViewerList('A', 'named', NAMED.map(named), T0)
    return s.store
  }
  const ids = async (store: Awaited<ReturnType<typeof namedList>>, query: Parameters<typeof store.read.viewers.page>[2]) =>
    (await store.read.viewers.page('A', 'named', { limit: 100, ...query })).rows.map((r) => r.viewerId)

  it('sorts text ignoring ASCII case only, byte by byte, ties in list order both ways', async () => {
    const store = await namedList()
    const ascending = ['Alpha', 'alpine', 'BETA', 'beta_2', 'Dup', 'dup', 'gamma%x', 'zeta', 'Ärger', 'ärger']
    expect(await ids(store, { sort: 'viewerId' })).toEqual(ascending)
    // Descending, the tie goes the other way too (the later first), as on every backend.
    expect(await ids(store, { sort: 'viewerId', descending: true })).toEqual(['ärger', 'Ärger', 'zeta', 'gamma%x', 'dup', 'Dup', 'beta_2', 'BETA', 'alpine', 'Alpha'])
  })

  it('puts unknown values last, ascending and descending', async () => {
    const store = await namedList()
    for (const descending of [false, true]) {
      const page = await store.read.viewers.page('A', 'named', { sort: 'deviceType', descending, limit: 100 })
      const devices = page.rows.map((r) => r.deviceType)
      const known = devices.filter((d) => d !== null)
      expect(devices).toEqual([...known, ...devices.filter((d) => d === null)])
      expect(known[0]).toBe(descending ? 'mobile' : 'Desktop')
    }
  })

  it('searches ignoring ASCII case, taking LIKE wildcards literally', async () => {
    const store = await namedList()
    expect(await ids(store, { sort: 'viewerId', filter: { text: 'ALP' } })).toEqual(['Alpha', 'alpine'])
    expect(await ids(store, { sort: 'viewerId', filter: { text: 'ärger' } })).toEqual(['ärger'])
    expect(await ids(store, { sort: 'viewerId', filter: { text: '%' } })).toEqual(['gamma%x'])
    expect(await ids(store, { sort: 'viewerId', filter: { text: 'a_2' } })).toEqual(['beta_2'])
    // The first connection's addresses are searched too.
    expect(await ids(store, { sort: 'viewerId', filter: { text: '198.51.100.3' } })).toEqual(['gamma%x'])
  })

  it('labels connection types as the breakdown does, so each group filters to its own viewers', async () => {
    const store = await namedList()
    const groups = await store.read.viewers.breakdown('A', 'named', 'connectionType')
    expect(groups.map((g) => g.key).sort()).toEqual(['1', '7', 'lte', 'wifi', 'wired', '[1,2]', '{"flag":true,"z":[1,2]}'].sort())
    for (const group of groups) {
      const page = await store.read.viewers.page('A', 'named', { sort: 'connectionType', filter: { connectionType: group.key }, limit: 100 })
      expect(page.total).toBe(group.viewers)
      expect(page.rows.every((r) => r.connectionType === group.key)).toBe(true)
    }
    const sites = await store.read.viewers.breakdown('A', 'named', 'site')
    expect(Object.fromEntries(sites.map((g) => [g.key, g.viewers]))).toEqual({ '0': 5, '1': 5 })
  })

  it("gives a viewer's connection type back exactly as the service sent it", async () => {
    const store = await namedList()
    for (const [i, id] of NAMED.entries()) {
      const viewer = await store.read.viewers.viewer('A', 'named', id)
      const connections = viewer?.networkConnections as { type: unknown }[]
      expect(JSON.stringify(connections[0]?.type)).toBe(JSON.stringify(TYPES[i % TYPES.length]))
    }
  })

  it('reads only the list held: a list stored again replaces the one before', async () => {
    const s = subject()
    await withConnection(s.store, 'A')
    await s.store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('again', T0)], T0))
    await s.seedViewerList('A', 'again', [viewerRecord(1, T0), viewerRecord(2, T0)], T0)
    await s.seedViewerList('A', 'again', [viewerRecord(3, T0)], T0 + SECOND)
    expect([...(await s.store.read.viewers.sessionsWithLists('A'))]).toEqual(['again'])
    expect(await s.store.read.viewers.listFetchedAt('A', 'again')).toBe(T0 + SECOND)
    const window = await s.store.read.viewers.window({ connectionId: 'A', eventSessionId: 'again', offset: 0, limit: 10 })
    expect(window).toMatchObject({ total: 1, records: [{ viewerId: viewerRecord(3, T0).viewerId }] })
    expect((await s.store.read.viewers.page('A', 'again', { sort: 'viewerId' })).total).toBe(1)
  })

  it("tells a list's story: the audience at each moment, its peak, who joined and left, and the quality", async () => {
    const s = subject()
    await withConnection(s.store, 'A')
    await s.store.withTransaction((tx) => tx.sessions.storeList('A', [sessionRecord('story', T0)], T0))
    const viewers: ViewerRecord[] = [
      { viewerId: 'a', startedAt: at(0), endedAt: at(10 * SECOND), reliabilityScore: 10, viewingTime: 5, cdnTraffic: 100, ecdnTraffic: 50 },
      { viewerId: 'b', startedAt: at(5 * SECOND), endedAt: at(20 * SECOND), reliabilityScore: 20, viewingTime: 7 },
      // Still watching when the list was fetched.
      { viewerId: 'c', startedAt: at(10 * SECOND), reliabilityScore: 30 },
      // No start: not in the story.
      { viewerId: 'd', endedAt: at(30 * SECOND), reliabilityScore: 40 },
      // An end before its start: left as it joined.
      { viewerId: 'e', startedAt: at(20 * SECOND), endedAt: at(15 * SECOND), reliabilityScore: 50 }
    ]
    await s.seedViewerList('A', 'story', viewers, T0 + 40 * SECOND)
    const story = await s.store.read.viewers.story('A', 'story', { maxPoints: 4 })
    expect(story).toMatchObject({
      fetchedAt: T0 + 40 * SECOND,
      viewers: 5,
      timedViewers: 4,
      stillWatching: 1,
      peak: { viewers: 2, at: T0 + 5 * SECOND },
      from: T0,
      to: T0 + 40 * SECOND,
      lastEndedAt: T0 + 30 * SECOND,
      viewingTime: 12
    })
    expect(story?.points.map(({ at, watching, peak, joins, leaves }) => ({ at: at - T0, watching, peak, joins, leaves }))).toEqual([
      { at: 10 * SECOND, watching: 2, peak: 2, joins: 2, leaves: 0 },
      { at: 20 * SECOND, watching: 2, peak: 2, joins: 1, leaves: 1 },
      { at: 30 * SECOND, watching: 1, peak: 1, joins: 1, leaves: 2 },
      { at: 40 * SECOND, watching: 1, peak: 1, joins: 0, leaves: 0 }
    ])
    const reliability = story?.points.map((p) => p.reliabilityScore) ?? []
    expect(reliability.map((r) => Number(r?.toFixed(6)))).toEqual([15, 20, 33.333333, 30])
    expect(await s.store.read.viewers.story('A', 'none')).toBeNull()
    // The units are guessed from viewers with a viewing time and a span.
    const sample = await s.store.read.viewers.unitSample()
    expect(sample.sort((x, y) => x.viewing - y.viewing)).toEqual([
      { viewing: 5, spanMs: 10 * SECOND, traffic: 150 },
      { viewing: 7, spanMs: 15 * SECOND, traffic: 0 }
    ])
  })
})
