// The viewer list writer on PostgreSQL (postgres/viewer-list-store.ts), against a real database:
// lists of many pages written with COPY and read back through the Store; a list abandoned half
// way, a list swapped in over a held one (the old one's rows purged afterwards, in batches); two
// servers writing at once; a new lease holder dropping a connection's stagings.
import pg from 'pg'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ViewerRecord } from '../../src/main/core/api/schemas'
import { openCache } from '../../src/main/core/store/open-cache'
import { openPgStore, type PgStore } from '../../src/main/core/store/postgres/pg-store'
import { pgViewerListStore, type PgViewerListOptions } from '../../src/main/core/store/postgres/viewer-list-store'
import { purgeDroppedViewerLists, type PurgeBatch } from '../../src/main/core/store/postgres/viewer-purge'
import type { ViewerListStore } from '../../src/main/core/store/viewer-store'
import { connectionSettings, sessionRecord, T0 } from '../contract/store/fixtures'
import { freshDatabase, type TestDatabase } from '../support/postgres-databases'

const PAGE = 500
let database: TestDatabase
const stores: PgStore[] = []
const writers: ViewerListStore[] = []

/** A server: a store with a pool of its own, and its viewer list writer. */
async function server(options: PgViewerListOptions = {}) {
  const store = await openPgStore(database.url)
  stores.push(store)
  const writer = pgViewerListStore(store, options)
  writers.push(writer)
  return { store, writer }
}

const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => database.query<R>(text, values)

/** Viewer `i` of a list tagged `tag`; `startedAt` in list order, so an export window is in `i` order. */
const viewer = (tag: string, i: number): ViewerRecord => ({
  viewerId: `${tag}-${String(i).padStart(6, '0')}`,
  deviceType: i % 2 === 0 ? 'desktop' : 'mobile',
  reliabilityScore: (i * 7919) % 10_007,
  startedAt: new Date(T0 + i * 1000).toISOString(),
  networkConnections: [{ siteCode: i % 4, publicIp: `203.0.113.${i % 250}` }, { siteCode: 9 }]
})
const page = (tag: string, number: number, size = PAGE): ViewerRecord[] => Array.from({ length: size }, (_, j) => viewer(tag, number * size + j))

async function withSessions(store: PgStore, connectionId: string, sessions: string[]): Promise<void> {
  await store.withTransaction(async (tx) => {
    if (!(await tx.connections.get(connectionId))) await tx.connections.insert(connectionSettings(`name ${connectionId}`), connectionId, T0)
    await tx.sessions.storeList(connectionId, sessions.map((id) => sessionRecord(id, T0)), T0)
  })
}

/** Every viewer id of a held list, read back a window at a time through the Store. */
async function idsOf(store: PgStore, connectionId: string, sessionId: string): Promise<string[]> {
  const ids: string[] = []
  for (let offset = 0; ; offset += 1000) {
    const window = await store.read.viewers.window({ connectionId, eventSessionId: sessionId, offset, limit: 1000 })
    ids.push(...window.records.map((r) => String(r.viewerId)))
    if (window.records.length < 1000) return ids
  }
}

const rowsOf = async (listId: number) =>
  (await query<{ viewers: number; connections: number }>(
    'SELECT (SELECT count(*) FROM viewers WHERE list_id = $1)::int AS viewers, (SELECT count(*) FROM viewer_connections WHERE list_id = $1)::int AS connections',
    [listId]
  ))[0]!
const listIds = async (sessionId: string) =>
  (await query<{ id: string; staged: boolean }>('SELECT id, staged_at IS NOT NULL AS staged FROM viewer_lists WHERE event_session_id = $1 ORDER BY id', [sessionId])).map((r) => ({ id: Number(r.id), staged: r.staged }))

/** Waits (5 s at most) until the staged lists of `sessionId` hold `viewers` in all: pages are
 *  written behind add(), which resolves while a page or two are still in hand. */
async function staged(sessionId: string, viewers: number): Promise<void> {
  const deadline = Date.now() + 5000
  for (;;) {
    const [row] = await query<{ n: number }>('SELECT COALESCE(sum(viewer_count), 0)::int AS n FROM viewer_lists WHERE event_session_id = $1 AND staged_at IS NOT NULL', [sessionId])
    if (row?.n === viewers) return
    if (Date.now() > deadline) throw new Error(`the stagings of ${sessionId} hold ${row?.n} viewers, not ${viewers}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeEach(async () => {
  database = await freshDatabase()
})

afterEach(async () => {
  for (const writer of writers.splice(0)) await writer.close()
  for (const store of stores.splice(0)) await store.close()
  await database.drop()
})

it('writes a list of many pages, a repeated viewer kept once, and the Store reads it whole', async () => {
  const { store, writer } = await server()
  await withSessions(store, 'A', ['s'])
  const list = writer.begin('A', 's', T0)
  for (let n = 0; n < 12; n++) await list.add(page('v', n))
  // The service listed viewer 7 again on a later page: its last record is its latest word.
  await list.add([{ ...viewer('v', 7), deviceType: 'tv' }])
  expect(await list.commit(13, T0)).toBe(12 * PAGE)

  const ids = await idsOf(store, 'A', 's')
  expect(ids).toEqual(Array.from({ length: 12 * PAGE }, (_, i) => viewer('v', i).viewerId))
  expect((await store.read.viewers.viewer('A', 's', viewer('v', 7).viewerId))?.deviceType).toBe('tv')
  const devices = await store.read.viewers.breakdown('A', 's', 'deviceType')
  expect(Object.fromEntries(devices.map((g) => [g.key, g.viewers]))).toEqual({ desktop: 3000, mobile: 2999, tv: 1 })
  const sites = await store.read.viewers.breakdown('A', 's', 'site')
  expect(Object.fromEntries(sites.map((g) => [g.key, g.viewers]))).toEqual({ '0': 1500, '1': 1500, '2': 1500, '3': 1500 })
  // Each viewer's network connections came with it, its first one the one it is filtered by.
  const onSite = await store.read.viewers.page('A', 's', { sort: 'viewerId', filter: { siteCode: 9 } })
  expect(onSite.total).toBe(0)
  expect((await store.read.viewers.viewer('A', 's', viewer('v', 42).viewerId))?.networkConnections).toEqual([
    { siteCode: 2, publicIp: '203.0.113.42' },
    { siteCode: 9 }
  ])
})

it('stores text COPY would misread (tabs, newlines, backslashes) as sent, and NUL as U+FFFD', async () => {
  const { store, writer } = await server()
  await withSessions(store, 'A', ['s'])
  const odd = ['tab\there', 'line\nbreak\r\n', 'back\\slash\\N', '\\N', 'nul\u0000byte']
  await writer.store('A', 's', odd.map((id) => ({ viewerId: id, os: id })), T0, 1)
  const page = await store.read.viewers.page('A', 's', { sort: 'viewerId' })
  expect(page.rows.map((r) => [r.viewerId, r.os])).toEqual(
    [...odd.map((id) => id.replace('\u0000', '\uFFFD'))].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)).map((id) => [id, id])
  )
})

it('keeps the held list whole while another is staged, drops one abandoned half way, and swaps a committed one in', async () => {
  const { store, writer } = await server({ purgeAfterWrites: false })
  await withSessions(store, 'A', ['s'])
  await writer.store('A', 's', page('old', 0, 3000), T0, 1)
  const [held] = await listIds('s')

  const abandoned = writer.begin('A', 's', T0 + 1)
  for (let n = 0; n < 3; n++) await abandoned.add(page('gone', n))
  const replacing = writer.begin('A', 's', T0 + 2)
  for (let n = 0; n < 4; n++) await replacing.add(page('new', n))
  await staged('s', 7 * PAGE)
  // Readers see the held list only, never a staged page.
  expect((await store.read.viewers.page('A', 's', { sort: 'viewerId' })).total).toBe(3000)
  expect(await store.read.viewers.listFetchedAt('A', 's')).toBe(T0)

  await abandoned.abandon()
  expect(await replacing.commit(4, T0 + 2)).toBe(4 * PAGE)
  expect(await idsOf(store, 'A', 's')).toEqual(page('new', 0, 4 * PAGE).map((v) => v.viewerId))
  expect(await store.read.viewers.listFetchedAt('A', 's')).toBe(T0 + 2)

  // The swap dropped the old list's row, not its 3,000 viewers: they go afterwards, in batches.
  const lists = await listIds('s')
  expect(lists).toHaveLength(1)
  expect(lists[0]).toMatchObject({ staged: false })
  expect(await rowsOf(held!.id)).toEqual({ viewers: 3000, connections: 6000 })
  const dropped = await query<{ list_id: string }>('SELECT list_id FROM viewer_lists_dropped ORDER BY list_id')
  expect(dropped).toHaveLength(2)

  const batches: PurgeBatch[] = []
  const purged = await purgeDroppedViewerLists(store, { batch: 1000, onBatch: (b) => batches.push(b) })
  expect(purged).toEqual({ lists: 2, viewers: 3000 + 3 * PAGE })
  expect(batches.every((b) => b.viewers <= 1000)).toBe(true)
  expect(batches.length).toBeGreaterThanOrEqual(5)
  expect(await rowsOf(held!.id)).toEqual({ viewers: 0, connections: 0 })
  expect(await query('SELECT * FROM viewer_lists_dropped')).toEqual([])
  // The held list is untouched by the purge.
  expect((await store.read.viewers.page('A', 's', { sort: 'viewerId' })).total).toBe(4 * PAGE)
  expect(await rowsOf(lists[0]!.id)).toEqual({ viewers: 4 * PAGE, connections: 8 * PAGE })
})

it('purges the rows of a list it replaced by itself, a batch at a time', async () => {
  const { store, writer } = await server({ purgeBatch: 700 })
  await withSessions(store, 'A', ['s'])
  await writer.store('A', 's', page('one', 0, 2000), T0, 1)
  const [replaced] = await listIds('s')
  await writer.store('A', 's', page('two', 0, 10), T0 + 1, 1)
  const deadline = Date.now() + 5000
  while ((await rowsOf(replaced!.id)).viewers > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  expect(await rowsOf(replaced!.id)).toEqual({ viewers: 0, connections: 0 })
  expect(await query('SELECT * FROM viewer_lists_dropped')).toEqual([])
  expect((await store.read.viewers.page('A', 's', { sort: 'viewerId' })).total).toBe(10)
})

it('notes the lists gone with their connection, and purges their rows', async () => {
  const { store, writer } = await server({ purgeAfterWrites: false })
  await withSessions(store, 'A', ['s', 't'])
  await writer.store('A', 's', page('one', 0, 2000), T0, 1)
  await writer.store('A', 't', page('two', 0, 1500), T0, 1)
  await store.withTransaction((tx) => tx.connections.remove('A'))
  // The cascade through the sessions dropped both lists' rows: the trigger noted them.
  expect((await query<{ viewers: string }>('SELECT viewers FROM viewer_lists_dropped ORDER BY viewers')).map((r) => Number(r.viewers))).toEqual([1500, 2000])
  expect(await purgeDroppedViewerLists(store)).toEqual({ lists: 2, viewers: 3500 })
  expect(await query('SELECT count(*)::int AS n FROM viewers')).toEqual([{ n: 0 }])
  expect(await query('SELECT count(*)::int AS n FROM viewer_connections')).toEqual([{ n: 0 }])
})

it('two servers writing lists at the same time get distinct lists, each whole, and the last swap of a session is held', async () => {
  const a = await server()
  const b = await server()
  const taken = ['both0', 'both1', 'both2', 'both3']
  await withSessions(a.store, 'A', ['s1', ...taken])
  await withSessions(a.store, 'B', ['s2'])
  const write = async (writer: ViewerListStore, connectionId: string, sessionId: string, tag: string, pages: number) => {
    const list = writer.begin(connectionId, sessionId, T0)
    for (let n = 0; n < pages; n++) await list.add(page(tag, n))
    return {
      // A list that failed is abandoned, so that closing its writer does not wait for it.
      commit: (fetchedAt: number) => list.commit(pages, fetchedAt).catch(async (error: unknown) => {
        await list.abandon()
        throw error
      })
    }
  }
  // Pages of both servers interleave on the database.
  const [one, two] = await Promise.all([write(a.writer, 'A', 's1', 'a', 8), write(b.writer, 'B', 's2', 'b', 8)])
  await Promise.all([one.commit(T0), two.commit(T0)])
  expect(await idsOf(b.store, 'A', 's1')).toEqual(page('a', 0, 8 * PAGE).map((v) => v.viewerId))
  expect(await idsOf(a.store, 'B', 's2')).toEqual(page('b', 0, 8 * PAGE).map((v) => v.viewerId))
  const [s1] = await listIds('s1')
  const [s2] = await listIds('s2')
  expect(s1!.id).not.toBe(s2!.id)
  // Each list numbers its viewers itself, 0 to n − 1, whatever the other wrote meanwhile.
  expect(await query('SELECT list_id::int, min(ordinal), max(ordinal), count(*)::int FROM viewers GROUP BY list_id ORDER BY list_id')).toEqual(
    [s1!.id, s2!.id].sort((x, y) => x - y).map((id) => ({ list_id: id, min: 0, max: 8 * PAGE - 1, count: 8 * PAGE }))
  )

  // Takeovers: both servers fetched a session's list; both swaps land, whichever is later is held.
  const pairs = await Promise.all(taken.map((s) => Promise.all([write(a.writer, 'A', s, 'first', 3), write(b.writer, 'A', s, 'second', 2)])))
  await Promise.all(pairs.flatMap(([first, second]) => [first.commit(T0 + 1), second.commit(T0 + 2)]))
  for (const s of taken) {
    expect((await listIds(s)).filter((l) => !l.staged)).toHaveLength(1)
    expect([3 * PAGE, 2 * PAGE]).toContain((await a.store.read.viewers.page('A', s, { sort: 'viewerId' })).total)
  }
})

it("a new lease holder drops the connection's stagings of the holder before it, and keeps its own", async () => {
  const old = await server()
  const heir = await server()
  await withSessions(old.store, 'A', ['s', 'mine'])
  await withSessions(old.store, 'B', ['other'])
  const stalled = old.writer.begin('A', 's', T0)
  await stalled.add(page('stalled', 0))
  const elsewhere = old.writer.begin('B', 'other', T0)
  await elsewhere.add(page('other', 0))
  const own = heir.writer.begin('A', 'mine', T0)
  await own.add(page('mine', 0))
  await Promise.all([staged('s', PAGE), staged('other', PAGE), staged('mine', PAGE)])

  expect(await heir.writer.dropAbandonedStagings('A')).toBe(1)
  // The stalled holder wakes: its next page, or its commit, fails in words and writes nothing.
  await expect(stalled.add(page('stalled', 1)).then(() => stalled.commit(2, T0))).rejects.toThrow(
    /viewer list of session "s" was dropped while it was arriving, as abandoned \(.*another server took its connection over\)/
  )
  await stalled.abandon()
  expect(await old.store.read.viewers.sessionsWithLists('A')).toEqual(new Set())
  // Another connection's staging, and the heir's own, go on.
  expect(await elsewhere.commit(1, T0)).toBe(PAGE)
  expect(await own.commit(1, T0)).toBe(PAGE)
  expect(await heir.store.read.viewers.sessionsWithLists('A')).toEqual(new Set(['mine']))
})

it('refuses, in words, a list whose session is not in the cache or leaves it while the list arrives', async () => {
  const { store, writer } = await server()
  await expect(writer.store('A', 'nowhere', page('x', 0, 3), T0, 1)).rejects.toThrow(/session "nowhere" left the cache .* the list is not kept/)
  await withSessions(store, 'A', ['s'])
  const list = writer.begin('A', 's', T0)
  await list.add(page('x', 0))
  await staged('s', PAGE)
  await store.withTransaction((tx) => tx.connections.remove('A'))
  await expect(list.add(page('x', 1)).then(() => list.commit(2, T0))).rejects.toThrow(/session "s" left the cache \(removed with its connection, or by retention\)/)
  await list.abandon()
})

it("runs its guard first in every write, so a holder that lost its connection's lease swaps nothing in", async () => {
  await (await openPgStore(database.url)).close()
  // A stand-in for the leases: the guard shares a row, as the fence check does.
  await query('CREATE TABLE held_here (connection_id text PRIMARY KEY)')
  await query("INSERT INTO held_here VALUES ('A')")
  const { store, writer } = await server({
    guard: async (sql, connectionId) => {
      const held = await sql('SELECT 1 FROM held_here WHERE connection_id = $1 FOR SHARE', [connectionId])
      if (held.count === 0) throw new Error(`this server no longer holds connection ${connectionId}`)
    }
  })
  await withSessions(store, 'A', ['s'])
  await writer.store('A', 's', page('first', 0, 10), T0, 1)
  const list = writer.begin('A', 's', T0 + 1)
  await list.add(page('late', 0))
  await staged('s', PAGE)
  await query("DELETE FROM held_here WHERE connection_id = 'A'")
  await expect(list.add(page('late', 1)).then(() => list.commit(2, T0 + 1))).rejects.toThrow('this server no longer holds connection A')
  await list.abandon()
  expect(await idsOf(store, 'A', 's')).toEqual(page('first', 0, 10).map((v) => v.viewerId))
  await expect(writer.store('A', 's', page('later', 0, 10), T0 + 2, 1)).rejects.toThrow('this server no longer holds connection A')
  expect(await listIds('s')).toHaveLength(1)
})

it('drops stagings nobody touched for an hour, when any list is begun or when asked', async () => {
  const { store, writer } = await server()
  await withSessions(store, 'A', ['s', 't', 'u'])
  const forgotten = writer.begin('A', 's', T0)
  await forgotten.add(page('forgotten', 0))
  const alsoForgotten = writer.begin('A', 't', T0)
  await alsoForgotten.add(page('also', 0))
  await Promise.all([staged('s', PAGE), staged('t', PAGE)])
  // Their process went away an hour ago, as far as anyone can tell.
  await query("UPDATE viewer_lists SET staged_at = staged_at - 3600001 WHERE event_session_id IN ('s', 't')")
  expect(await writer.dropAbandonedStagings()).toBe(2)
  await expect(forgotten.commit(1, T0)).rejects.toThrow(/dropped while it was arriving, as abandoned/)
  await forgotten.abandon()
  await alsoForgotten.abandon()

  const old = writer.begin('A', 's', T0)
  await old.add(page('old', 0))
  await staged('s', PAGE)
  await query("UPDATE viewer_lists SET staged_at = staged_at - 3600001 WHERE event_session_id = 's'")
  // Any list begun drops them too.
  await writer.store('A', 'u', page('fresh', 0, 3), T0, 1)
  expect(await listIds('s')).toEqual([])
  await old.abandon()
})

it("purges what retention dropped as the retention job's compaction on PostgreSQL", async () => {
  const cache = await openCache(database.url)
  const store = cache.store as PgStore
  stores.push(store)
  const writer = cache.viewerLists({ offThread: true, onFallback: () => undefined })
  writers.push(writer)
  await withSessions(store, 'A', ['s'])
  await writer.store('A', 's', page('kept long ago', 0, 1200), T0, 1)
  // Its own purge after the swap is over (there was nothing to purge): only retention drops now.
  await writer.close()
  const [list] = await listIds('s')
  expect(await store.withTransaction((tx) => tx.retention.pruneViewerLists(T0 + 1, 5000))).toEqual({ lists: 1, viewers: 1200 })
  expect(await rowsOf(list!.id)).toEqual({ viewers: 1200, connections: 2400 })
  const steps = cache.compaction!()
  let step = await steps.next()
  while (!step.done) step = await steps.next()
  expect(step.value).toMatchObject({ vacuum: 'none' })
  expect(await rowsOf(list!.id)).toEqual({ viewers: 0, connections: 0 })
})
