// Staged viewer lists (issue 13): a list written page by page through the cache writer's thread,
// invisible to readers until its last page lands, then swapped in whole; a repeated viewer id
// across pages keeps its last record; an abandoned or crashed staging leaves the held list as it was.
import { afterEach, describe, expect, it } from 'vitest'
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
  it('are dropped at the next start once untouched for an hour, and at once when the session is staged again', () => {
    const { db } = seeded()
    storeSessionList(db, 'A', [session('s2')], T0)
    const old = beginStagedList(db, 'A', 's1', T0)
    stagePage(db, old, viewerListRows(viewers('dead', 0, 20)), T0)
    const recent = beginStagedList(db, 'A', 's2', T0 + ABANDONED_AFTER_MS)
    stagePage(db, recent, viewerListRows(viewers('alive', 0, 20)), T0 + ABANDONED_AFTER_MS)
    // An hour and a minute later: the first is abandoned, the second (touched an hour ago) not yet.
    expect(dropAbandonedStagings(db, T0 + ABANDONED_AFTER_MS + 60_000)).toBe(1)
    expect(db.prepare('SELECT event_session_id AS id FROM viewer_lists').all()).toEqual([{ id: 's2' }])
    // Staging s2 again drops its earlier staging whatever its age.
    beginStagedList(db, 'A', 's2', T0 + ABANDONED_AFTER_MS + 61_000)
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get()).toEqual({ n: 1 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 0 })
  })
})
