// Session ids are opaque data (issue 13), proved against the simulator over loopback into a real
// SQLite file. "." and ".." cannot be one segment of a URL path (URL parsing resolves them, so the
// request would reach another endpoint): they are stored as listed, kept apart, never asked about,
// with one diagnostic. Every other id, however hostile, travels as one encoded segment and its
// data is stored under exactly that id.
import { describe, expect, it, onTestFinished } from 'vitest'
import { ApiError } from '../../src/main/core/api/errors'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import { liveSessionIds } from '../../src/main/core/store/sessions'
import { listSyncRuns } from '../../src/main/core/store/sync-runs'
import { Poller } from '../../src/main/core/sync/poller'
import { refreshDetails } from '../../src/main/core/sync/details'
import { syncPass } from '../../src/main/core/sync/sync-pass'
import { simulatorCache } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

const DOTS = ['.', '..']
const HOSTILE = ['a/b', '%2e', '%2E%2E', '.%2e', '?x=1', '#top', '=1+1', '<script>alert(1)</script>', ' ', 'ü/../ñ', 'x'.repeat(300)]
const NORMAL = 2

async function setup(sessionIds: string[] = [...DOTS, ...HOSTILE], others = NORMAL) {
  const sim = await startSimulator({
    sessionIds,
    liveSessions: sessionIds.length + others,
    endedSessions: 0,
    viewersPerSession: 30,
    viewersPageSize: 10,
    churnSessions: false
  })
  onTestFinished(() => sim.close())
  const { db, target } = simulatorCache(sim)
  const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
  return { sim, db, client }
}

const ids = (db: Db, sql: string): string[] => (db.prepare(sql).all() as { id: string }[]).map((r) => r.id).sort()
const count = (db: Db, sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n
const sorted = (values: string[]): string[] => [...values].sort()

/** Every request path the simulator saw that is not one of the spec's endpoints for a session it has. */
function strayPaths(sim: RunningSimulator): string[] {
  const known = new Set(sim.world.sessions.map((s) => s.eventSessionId))
  return sim.stats.log
    .map((r) => r.path)
    .filter((path) => {
      if (path === '/v2/auth/token' || path === '/v1/events/sessions') return false
      const m = /^\/v1\/events\/sessions\/([^/]+)(\/viewers)?$/.exec(path)
      const id = m ? decodeURIComponent(m[1] as string) : undefined
      return id === undefined || DOTS.includes(id) || !known.has(id)
    })
}

describe('ids "." and ".."', () => {
  it('are stored as listed and kept apart, never requested, with one diagnostic; the other sessions sync fully', async () => {
    const { sim, db, client } = await setup()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 7 })

    expect(report.problems).toEqual([])
    expect(report.listed).toBe(sim.world.sessions.length)
    // Two rows, one per id, each with its own record.
    expect(ids(db, "SELECT event_session_id AS id FROM sessions WHERE event_session_id IN ('.', '..')")).toEqual(['.', '..'])
    for (const id of DOTS) {
      const row = db.prepare('SELECT raw_json FROM sessions WHERE event_session_id = ?').get(id) as { raw_json: string }
      expect(JSON.parse(row.raw_json).eventSessionId).toBe(id)
      expect(JSON.parse(row.raw_json).contentId).toBe(sim.world.find(id)?.contentId)
    }
    expect(strayPaths(sim)).toEqual([])
    expect(sim.stats.count('other')).toBe(0)
    // Nothing stored under an id whose data the service never sent.
    expect(count(db, "SELECT COUNT(*) AS n FROM viewer_lists WHERE event_session_id IN ('.', '..')")).toBe(0)
    expect(count(db, "SELECT COUNT(*) AS n FROM snapshots WHERE event_session_id IN ('.', '..')")).toBe(0)
    const said = db.prepare("SELECT message FROM diagnostics WHERE message LIKE '%cannot be sent in a URL path%'").all() as { message: string }[]
    expect(said).toHaveLength(1)
    expect(said[0]?.message).toContain('"."')
    expect(said[0]?.message).toContain('".."')

    const addressable = sim.world.sessions.filter((s) => !DOTS.includes(s.eventSessionId))
    expect(report.snapshots).toBe(addressable.length)
    expect(report.viewerLists).toBe(addressable.length)
    for (const session of addressable) {
      const id = session.eventSessionId
      expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots WHERE event_session_id = ?', id), id).toBe(1)
      const list = db.prepare('SELECT id FROM viewer_lists WHERE event_session_id = ? AND staged_at IS NULL').get(id) as { id: number }
      expect(count(db, 'SELECT COUNT(*) AS n FROM viewers WHERE list_id = ?', list.id), id).toBe(session.viewers.length)
    }
  })

  it('are never asked about by the live-detail cadence either: no request, no problem', async () => {
    const { sim, db, client } = await setup()
    await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 7 })
    const before = sim.stats.count('session')
    const live = liveSessionIds(db, 'c1')
    expect(live).toEqual(expect.arrayContaining(DOTS))

    const details = await refreshDetails(storesOf(db).store, 'c1', client, live)
    expect(details.problems).toEqual([])
    expect(details.snapshots).toBe(live.length - DOTS.length)
    expect(sim.stats.count('session') - before).toBe(live.length - DOTS.length)
    expect(strayPaths(sim)).toEqual([])
  })

  it('as the only live sessions, leave a poller\'s detail rounds ok (nothing to do), not failed', async () => {
    const { sim, db, client } = await setup(DOTS, 0)
    const poller = new Poller(storesOf(db).store, client, {
    viewerStore: storesOf(db).viewerStore, connectionId: 'c1', cadences: { discoveryMs: 60_000, detailMs: 20, viewersMs: 60_000 } })
    onTestFinished(() => poller.stop())
    poller.start()
    const detailRuns = () => listSyncRuns(db, 'c1').filter((r) => r.kind === 'details' && r.outcome !== null)
    while (detailRuns().length < 2) await new Promise((r) => setTimeout(r, 10))
    await poller.stop()
    expect(detailRuns().map((r) => r.outcome)).toEqual(detailRuns().map(() => 'ok'))
    expect(poller.currentStatus.lastError).toBeNull()
    expect(sim.stats.count('session')).toBe(0)
    expect(strayPaths(sim)).toEqual([])
  })

  it('are refused by the client before any request, in words naming the id', async () => {
    const { sim, client } = await setup()
    for (const id of DOTS) {
      await expect(client.getSession(id)).rejects.toThrow(new RegExp(`the id "${id.replace(/\./g, '\\.')}" cannot be sent in a URL path`))
      const viewers = client.listViewers(id)
      await expect(viewers).rejects.toBeInstanceOf(ApiError)
      await expect(viewers).rejects.toMatchObject({ kind: 'response-format' })
    }
    expect(sim.stats.dataRequests).toBe(0)
  })
})

describe('hostile but addressable ids', () => {
  it('are requested as one encoded path segment and stored under exactly that id', async () => {
    const { sim, db, client } = await setup()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 7 })
    expect(report.problems).toEqual([])

    const paths = new Set(sim.stats.log.map((r) => r.path))
    for (const id of HOSTILE) {
      const segment = encodeURIComponent(id)
      expect(paths.has(`/v1/events/sessions/${segment}`), id).toBe(true)
      expect(paths.has(`/v1/events/sessions/${segment}/viewers`), id).toBe(true)
      expect(count(db, 'SELECT COUNT(*) AS n FROM sessions WHERE event_session_id = ?', id), id).toBe(1)
      expect(count(db, 'SELECT COUNT(*) AS n FROM snapshots WHERE event_session_id = ?', id), id).toBe(1)
      const stored = count(
        db,
        'SELECT COUNT(*) AS n FROM viewers v JOIN viewer_lists vl ON vl.id = v.list_id WHERE vl.event_session_id = ? AND vl.staged_at IS NULL',
        id
      )
      expect(stored, id).toBe(sim.world.find(id)?.viewers.length)
    }
    // Nothing stored under an id the service did not send.
    const sent = sorted(sim.world.sessions.map((s) => s.eventSessionId))
    expect(ids(db, 'SELECT event_session_id AS id FROM sessions')).toEqual(sent)
    expect(ids(db, 'SELECT DISTINCT event_session_id AS id FROM snapshots')).toEqual(sent.filter((id) => !DOTS.includes(id)))
    expect(ids(db, 'SELECT event_session_id AS id FROM viewer_lists')).toEqual(sent.filter((id) => !DOTS.includes(id)))
  })
})

describe('ids that are not Unicode text (a lone surrogate, which JSON can carry)', () => {
  const ILL_FORMED = ['\ud800', 'a\udfff', '\udc00\ud800']

  it('are skipped and counted as listed records that cannot be kept: no row, no request, no problem', async () => {
    const { sim, db, client } = await setup(ILL_FORMED, 2)
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 7 })

    expect(report.problems).toEqual([])
    expect(report.skipped).toBe(ILL_FORMED.length)
    expect(report.listed).toBe(2)
    expect(count(db, 'SELECT COUNT(*) AS n FROM sessions')).toBe(2)
    expect(report.viewerLists).toBe(2)
    expect(strayPaths(sim)).toEqual([])
    const said = db.prepare("SELECT message FROM diagnostics WHERE message LIKE '%not valid Unicode text%'").all()
    expect(said).toHaveLength(ILL_FORMED.length)
  })

  it('are refused by the client before any request, shown escaped', async () => {
    const { sim, client } = await setup([], 1)
    await expect(client.getSession('\ud800')).rejects.toThrow('the id "\\ud800" cannot be sent in a URL path (it is not valid Unicode text)')
    expect(sim.stats.dataRequests).toBe(0)
  })
})
