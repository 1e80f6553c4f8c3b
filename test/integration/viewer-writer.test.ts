// The cache writer: viewer lists stored by a real worker thread into a real SQLite file, read
// back through this thread's own connection; failures reported per list, nothing half-stored.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { startSimulator } from '../../src/main/core/simulator/server'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { viewerPage } from '../../src/main/core/store/queries'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { CacheWriterError, startViewerWriter } from '../../src/main/core/store/viewer-writer'
import type { ViewerListStore } from '../../src/main/core/store/viewer-store'
import { syncPass } from '../../src/main/core/sync/sync-pass'
import { saveSimulatorConnection } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

const T0 = Date.parse('2026-03-02T09:00:00Z')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-writer-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function writer(file: string): ViewerListStore {
  const store = startViewerWriter({ file })
  cleanups.push(() => store.close())
  return store
}

const session = (id: string): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: 't', contentId: 'c', eventName: id,
  startedAt: new Date(T0).toISOString(), updatedAt: new Date(T0).toISOString(), hasEnded: false,
  viewersCount: 2, reliabilityScore: 90, cdnTraffic: 1, ecdnTraffic: 1
})

const viewers = (prefix: string, n: number): ViewerRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    viewerId: `${prefix}-${i}`,
    os: i % 2 ? 'iOS' : 'Windows',
    reliabilityScore: 50 + i,
    startedAt: new Date(T0 + i * 1000).toISOString(),
    networkConnections: [{ siteCode: 100 + i, publicIp: `203.0.113.${i}`, type: { kind: 'wired' } }]
  }))

function seeded(): { db: Db; file: string } {
  const file = join(tempDir(), 'cache.db')
  const db = openDatabase(file)
  cleanups.push(() => {
    db.close()
  })
  upsertConnection(db, { id: 'A', name: 'A', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
  storeSessionList(db, 'A', [session('s1'), session('s2')], T0)
  return { db, file }
}

describe('the cache writer (a worker thread)', () => {
  it('stores lists that this thread then reads, network connections and all', async () => {
    const { db, file } = seeded()
    const store = writer(file)
    await Promise.all([store.store('A', 's1', viewers('a', 40), T0, 2), store.store('A', 's2', viewers('b', 3), T0, 1)])
    const page = viewerPage(db, 'A', 's1', { sort: 'reliabilityScore', limit: 2 })
    expect(page.total).toBe(40)
    expect(page.rows.map((r) => [r.viewerId, r.os, r.siteCode, r.publicIp, r.connectionType])).toEqual([
      ['a-0', 'Windows', 100, '203.0.113.0', 'wired'],
      ['a-1', 'iOS', 101, '203.0.113.1', 'wired']
    ])
    expect(viewerPage(db, 'A', 's2', { sort: 'viewerId' }).total).toBe(3)
    // Replacing a list replaces it whole.
    await store.store('A', 's1', viewers('c', 5), T0 + 60_000, 1)
    expect(viewerPage(db, 'A', 's1', { sort: 'viewerId' }).rows.map((r) => r.viewerId)).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4'])
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewer_connections').get()).toEqual({ n: 8 })
  })

  it('fails one list with the database’s reason, stores none of it, and goes on with the next', async () => {
    const { db, file } = seeded()
    const store = writer(file)
    // No such session: the list's foreign key fails inside the worker's transaction.
    const failed = store.store('A', 'unknown', viewers('x', 10), T0, 1)
    const next = store.store('A', 's1', viewers('a', 2), T0, 1)
    await expect(failed).rejects.toThrow(CacheWriterError)
    await expect(failed).rejects.toThrow(/FOREIGN KEY/)
    await expect(failed).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })
    await next
    expect(db.prepare('SELECT event_session_id AS id, viewer_count AS n FROM viewer_lists').all()).toEqual([{ id: 's1', n: 2 }])
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 2 })
  })

  it('close waits for the lists in hand; a store after close is refused', async () => {
    const { db, file } = seeded()
    const store = startViewerWriter({ file })
    const pending = store.store('A', 's1', viewers('a', 500), T0, 1)
    await store.close()
    await pending
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: 500 })
    await expect(store.store('A', 's2', viewers('b', 1), T0, 1)).rejects.toThrow(/closed/)
  })

  it('says why when it cannot open the cache, for every list', async () => {
    const dir = tempDir()
    const notAFile = join(dir, 'a-directory')
    mkdirSync(notAFile)
    const store = writer(notAFile)
    await expect(store.store('A', 's1', viewers('a', 1), T0, 1)).rejects.toThrow(/the cache writer stopped: .+/)
    await expect(store.store('A', 's2', viewers('a', 1), T0, 1)).rejects.toThrow(/the cache writer stopped/)
  })

  it('serves a sync pass: the same lists as storing on this thread', async () => {
    // A frozen world: both passes read the same pages.
    const sim = await startSimulator({ liveSessions: 3, endedSessions: 2, viewersPerSession: 150, viewersPageSize: 40, churnSessions: false, clock: () => T0 })
    cleanups.push(() => sim.close())
    const dir = tempDir()
    const results: Record<string, unknown>[] = []
    for (const useWriter of [false, true]) {
      const file = join(dir, `cache-${useWriter}.db`)
      const db = openDatabase(file)
      cleanups.push(() => {
        db.close()
      })
      const target = saveSimulatorConnection(db, sim, 'c1', 'T')
      const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
      const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, clock: () => T0, ...(useWriter ? { viewerStore: writer(file) } : {}) })
      expect(report.problems).toEqual([])
      results.push({
        lists: report.viewerLists,
        viewers: report.viewers,
        rows: db
          .prepare(
            `SELECT vl.event_session_id, v.viewer_id, v.os, v.reliability_score, vc.site_code, vc.public_ip
             FROM viewer_lists vl JOIN viewers v ON v.list_id = vl.id LEFT JOIN viewer_connections vc ON vc.viewer = v.id
             ORDER BY 1, 2, vc.position`
          )
          .all()
      })
    }
    expect(results[0]).toMatchObject({ lists: 5, viewers: sim.world.sessions.reduce((n, s) => n + s.viewers.length, 0) })
    expect(results[1]).toEqual(results[0])
  })
})
