// Staged viewer lists (issue 13): a list written page by page through the cache writer's thread,
// invisible to readers until its last page lands, then swapped in whole; a repeated viewer id
// across pages keeps its last record; an abandoned or crashed staging leaves the held list as it was.
// Two fetches of one session's list each stage their own, the last to commit is held (issue 23).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import type { Db } from '../../src/main/core/store/db'
import { breakdown, viewerPage } from '../../src/main/core/store/queries'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { ABANDONED_AFTER_MS, beginStagedList, dropAbandonedStagings, stagePage } from '../../src/main/core/store/viewer-staging'
import { inThreadViewerStore, type ViewerListStore } from '../../src/main/core/store/viewer-store'
import { viewerListRows } from '../../src/main/core/store/viewer-rows'
import { startViewerWriter } from '../../src/main/core/store/viewer-writer'
import { liveSession, seededCache } from '../support/seeded-cache'

const T0 = Date.parse('2026-03-02T09:00:00Z')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const session = (id: string): EventSessionRecord => liveSession(id, T0)

const viewers = (prefix: string, from: number, n: number, os = 'Windows'): ViewerRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    viewerId: `${prefix}-${from + i}`,
    os,
    reliabilityScore: 50 + i,
    networkConnections: [{ siteCode: 100 + ((from + i) % 3) }]
  }))

const seeded = (): { db: Db; file: string } => seededCache(cleanups, ['s1'], T0)

const stores: [string, (db: Db, file: string) => ViewerListStore][] = [
  ['on this thread', (db) => inThreadViewerStore(db)],
  ['on the cache writer’s thread', (_db, file) => startViewerWriter({ file })]
]

const held = (db: Db): number => viewerPage(db, 'A', 's1', { sort: 'viewerId', limit: 1, offset: 0 }).total

describe.each(stores)('a list staged %s', (_name, makeStore) => {
  it('stays invisible until its last page lands, then replaces the held list whole', async () => {
    const { db, file } = seeded()
    const store = makeStore(db, file)
    cleanups.push(() => store.close())
    await store.store('A', 's1', viewers('old', 0, 5), T0, 1)
    expect(held(db)).toBe(5)

    const list = store.begin('A', 's1', T0 + 1000)
    await list.add(viewers('new', 0, 300))
    await list.add(viewers('new', 300, 300))
    // Give the writer time to write both pages: readers still see the old list.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(held(db)).toBe(5)
    expect(viewerPage(db, 'A', 's1', { sort: 'viewerId', limit: 1, offset: 0 }).rows[0]?.viewerId).toMatch(/^old-/)
    expect(await list.commit(2, T0 + 2000)).toBe(600)
    expect(held(db)).toBe(600)
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 600 }) // the old list is gone
    // Breakdowns were summed page by page and kept with the list.
    const sites = breakdown(db, 'A', 's1', 'site')
    expect(sites.reduce((n, row) => n + row.viewers, 0)).toBe(600)
    expect((db.prepare('SELECT breakdowns_of FROM viewer_lists WHERE staged_at IS NULL').get() as { breakdowns_of: number }).breakdowns_of).toBe(T0 + 2000)
  })

  it('keeps the last record of a viewer id repeated on a later page, and recounts its breakdowns', async () => {
    const { db, file } = seeded()
    const store = makeStore(db, file)
    cleanups.push(() => store.close())
    const list = store.begin('A', 's1', T0)
    await list.add(viewers('v', 0, 10, 'Windows'))
    await list.add(viewers('v', 5, 10, 'macOS')) // v-5 … v-9 again, now on macOS
    expect(await list.commit(2, T0)).toBe(15)
    const os = Object.fromEntries(breakdown(db, 'A', 's1', 'os').map((row) => [row.key, row.viewers]))
    expect(os).toEqual({ Windows: 5, macOS: 10 })
    const ids = (db.prepare('SELECT viewer_id AS id FROM viewers ORDER BY viewer_id').all() as { id: string }[]).map((r) => r.id)
    expect(new Set(ids).size).toBe(15)
  })

  it('beside another of the same session, stays its own: the last whole list to commit is held', async () => {
    const { db, file } = seeded()
    const store = makeStore(db, file)
    cleanups.push(() => store.close())
    const first = store.begin('A', 's1', T0)
    const second = store.begin('A', 's1', T0 + 1)
    await first.add(viewers('v', 0, 2))
    await second.add(viewers('v', 0, 2))
    await first.add(viewers('v', 2, 1))
    expect(await first.commit(2, T0)).toBe(3)
    expect(held(db)).toBe(3)
    await second.add(viewers('v', 2, 1, 'macOS'))
    expect(await second.commit(2, T0 + 1)).toBe(3)
    const rows = db.prepare('SELECT viewer_id AS id, os FROM viewers ORDER BY viewer_id').all()
    expect(rows).toEqual([
      { id: 'v-0', os: 'Windows' },
      { id: 'v-1', os: 'Windows' },
      { id: 'v-2', os: 'macOS' }
    ])
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get()).toEqual({ n: 1 })
  })

  it('dropped as abandoned while it arrives, fails naming why, and never writes into a list staged after it', async () => {
    const { db, file } = seeded()
    const store = makeStore(db, file)
    cleanups.push(() => store.close())
    const stalled = store.begin('A', 's1', T0)
    await stalled.add(viewers('old', 0, 3))
    await vi.waitFor(() => expect(db.prepare('SELECT viewer_count AS n FROM viewer_lists WHERE staged_at IS NOT NULL').get()).toEqual({ n: 3 }))
    // Another process, an hour and more later, finds it untouched: dropped (the newest list row,
    // whose id SQLite would give again), and s1 staged again.
    expect(dropAbandonedStagings(db, Date.now() + ABANDONED_AFTER_MS + 1)).toBe(1)
    const fresh = store.begin('A', 's1', T0 + 1)
    await fresh.add(viewers('new', 0, 2))
    await expect(stalled.add(viewers('old', 3, 3)).then(() => stalled.commit(2, T0))).rejects.toThrow(/dropped while it was arriving, as abandoned/)
    await stalled.abandon()
    expect(await fresh.commit(1, T0 + 1)).toBe(2)
    const ids = (db.prepare("SELECT viewer_id AS id FROM viewers v JOIN viewer_lists vl ON vl.id = v.list_id WHERE vl.event_session_id = 's1'").all() as { id: string }[]).map((r) => r.id)
    expect(ids.sort()).toEqual(['new-0', 'new-1'])
  })

  it('abandoned, leaves the held list as it was and nothing staged behind', async () => {
    const { db, file } = seeded()
    const store = makeStore(db, file)
    cleanups.push(() => store.close())
    await store.store('A', 's1', viewers('old', 0, 4), T0, 1)
    const list = store.begin('A', 's1', T0)
    await list.add(viewers('new', 0, 50))
    await list.abandon()
    expect(held(db)).toBe(4)
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NOT NULL').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 4 })
  })
})

describe('stagings left by a process that died', () => {
  it('are dropped once untouched for an hour: at the next start, or when a list is next staged', () => {
    const { db } = seeded()
    storeSessionList(db, 'A', [session('s2')], T0)
    const old = beginStagedList(db, 'A', 's1', T0, T0)
    stagePage(db, old, viewerListRows(viewers('dead', 0, 20)), T0)
    const recent = beginStagedList(db, 'A', 's2', T0 + ABANDONED_AFTER_MS, T0 + ABANDONED_AFTER_MS)
    stagePage(db, recent, viewerListRows(viewers('alive', 0, 20)), T0 + ABANDONED_AFTER_MS)
    // An hour and a minute later: the first is abandoned, the second (touched an hour ago) not yet.
    expect(dropAbandonedStagings(db, T0 + ABANDONED_AFTER_MS + 60_000)).toBe(1)
    expect(db.prepare('SELECT event_session_id AS id FROM viewer_lists').all()).toEqual([{ id: 's2' }])
    // Staging s2 again leaves the earlier staging (another fetch's, maybe in another process)...
    beginStagedList(db, 'A', 's2', T0 + ABANDONED_AFTER_MS + 61_000, T0 + ABANDONED_AFTER_MS + 61_000)
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get()).toEqual({ n: 2 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 20 })
    // ...and a staging begun once it has been untouched for an hour drops it.
    beginStagedList(db, 'A', 's1', T0 + 2 * ABANDONED_AFTER_MS + 1, T0 + 2 * ABANDONED_AFTER_MS + 1)
    expect(db.prepare('SELECT event_session_id AS session FROM viewer_lists ORDER BY id').all()).toEqual([{ session: 's2' }, { session: 's1' }])
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 0 })
  })
})
