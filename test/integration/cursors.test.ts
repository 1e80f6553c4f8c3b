// Odd cursors through whole sync passes (issue 13), against the simulator over loopback into a
// real SQLite file: numeric cursors are taken as their decimal text; a cursor the service
// repeats ends that listing with a diagnostic and keeps every page read (a session page is stored
// as it arrives, a viewer list read up to the repeat is committed); a listing that breaks on a
// later page keeps the pages before it.
import { describe, expect, it, onTestFinished } from 'vitest'
import { createReportingClient } from '../../src/main/core/app/client-factory'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import { syncPass, type SyncProgress } from '../../src/main/core/sync/sync-pass'
import { simulatorCache } from '../support/simulator-connection'
import { storesOf } from '../support/poll-stores'

async function setup(options: SimulatorOptions) {
  const sim = await startSimulator({ churnSessions: false, viewersPerSession: 60, ...options })
  onTestFinished(() => sim.close())
  const { db, target } = simulatorCache(sim)
  const client = createReportingClient(storesOf(db).store, target, async () => sim.credentials)
  return { sim, db, client }
}

const count = (db: Db, sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n
const column = (db: Db, sql: string, ...params: unknown[]): string[] => (db.prepare(sql).all(...params) as { v: string }[]).map((r) => r.v)

/** The viewer ids held for one session (not staged), in no particular order. */
const heldViewerIds = (db: Db, id: string): string[] =>
  column(db, 'SELECT v.viewer_id AS v FROM viewers v JOIN viewer_lists vl ON vl.id = v.list_id WHERE vl.event_session_id = ? AND vl.staged_at IS NULL', id)

const repeatedCursorNotes = (db: Db, endpoint: string): string[] =>
  column(db, "SELECT message AS v FROM diagnostics WHERE endpoint = ? AND message LIKE '%repeated a page cursor%'", endpoint)

/** Calls `then` once, when the session listing has ended (before any detail or viewer request). */
const afterListing = (then: () => void) => (p: SyncProgress) => {
  if (p.phase === 'sessions' && p.total !== undefined) then()
}

const cursorsSent = (sim: RunningSimulator): string[] =>
  sim.stats.log.map((r) => new URLSearchParams(r.query).get('cursor')).filter((c): c is string => c !== null)

describe('numeric cursors', () => {
  it('carry a whole pass: every session and every viewer of every list stored', async () => {
    const { sim, db, client } = await setup({ liveSessions: 4, endedSessions: 5, sessionsPageSize: 3, viewersPageSize: 7 })
    sim.faults.numberCursors()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })

    expect(report.problems).toEqual([])
    // The cursors went back as the decimal text of the numbers served, on both kinds of listing.
    const sent = cursorsSent(sim)
    expect(sent.length).toBeGreaterThan(10)
    for (const cursor of sent) expect(cursor).toMatch(/^[1-9]\d*$/)
    expect(sim.stats.log.some((r) => r.path.endsWith('/viewers') && /(^|&)cursor=\d+(&|$)/.test(r.query))).toBe(true)

    expect(report.listed).toBe(sim.world.sessions.length)
    expect(count(db, 'SELECT COUNT(*) AS n FROM sessions')).toBe(sim.world.sessions.length)
    expect(report.viewerLists).toBe(sim.world.sessions.length)
    for (const session of sim.world.sessions) {
      expect(heldViewerIds(db, session.eventSessionId).sort(), session.eventSessionId).toEqual(session.viewers.map((v) => v.viewerId).sort())
    }
    expect(count(db, 'SELECT COUNT(*) AS n FROM diagnostics')).toBe(0)
  })
})

describe('a repeated cursor in the session list', () => {
  it('ends the listing with a diagnostic; the pages read are stored and the pass goes on to their details and viewers', async () => {
    const { sim, db, client } = await setup({ liveSessions: 8, endedSessions: 2, sessionsPageSize: 4, viewersPageSize: 25 })
    sim.faults.repeatCursors()
    const report = await syncPass({
      ...storesOf(db),
      connectionId: 'c1',
      client,
      lookbackDays: 30,
      onProgress: afterListing(() => sim.faults.repeatCursors(false))
    })

    // Two pages: the first, then the second asked for with a cursor that came back as its own next.
    expect(sim.stats.count('sessions')).toBe(2)
    expect(repeatedCursorNotes(db, 'GET /v1/events/sessions')).toEqual([expect.stringMatching(/after 2 pages; the listing ends there, with every page read kept/)])
    expect(report.problems).toEqual([])
    // The report says so too (the CLI's summary line names it).
    expect(report.cutShort).toEqual([{ eventSessionId: null, eventName: null, pages: 2 }])
    const read = sim.world.sessions.slice(0, 8)
    const unread = sim.world.sessions.slice(8)
    expect(report.listed).toBe(8)
    expect(column(db, 'SELECT event_session_id AS v FROM sessions').sort()).toEqual(read.map((s) => s.eventSessionId).sort())

    // The pass carried on for the sessions it read: details of the live ones, every viewer list.
    const liveRead = read.filter((s) => !s.hasEnded)
    expect(liveRead.length).toBeGreaterThan(0)
    expect(report.snapshots).toBe(liveRead.length)
    expect(report.viewerLists).toBe(read.length)
    for (const session of read) expect(heldViewerIds(db, session.eventSessionId)).toHaveLength(session.viewers.length)
    // Nothing was asked about the sessions beyond the repeat.
    const paths = sim.stats.log.map((r) => r.path)
    for (const session of unread) expect(paths.filter((p) => p.includes(session.eventSessionId))).toEqual([])
  })
})

describe('a repeated cursor in a viewer list', () => {
  it('commits the list as read (a diagnostic each), the pass without problems', async () => {
    const { sim, db, client } = await setup({ liveSessions: 3, endedSessions: 0, sessionsPageSize: 10, viewersPageSize: 10 })
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, onProgress: afterListing(() => sim.faults.repeatCursors()) })

    expect(report.problems).toEqual([])
    expect(report.viewerLists).toBe(3)
    expect(repeatedCursorNotes(db, 'GET /v1/events/sessions/{id}/viewers')).toHaveLength(3)
    // Each note and each entry of the report names its session.
    for (const session of sim.world.sessions) {
      expect(repeatedCursorNotes(db, 'GET /v1/events/sessions/{id}/viewers').filter((note) => note.includes(session.eventSessionId))).toHaveLength(1)
    }
    expect(report.cutShort.map((l) => [l.eventSessionId, l.eventName, l.pages]).sort()).toEqual(
      sim.world.sessions.map((s) => [s.eventSessionId, s.eventName, 2]).sort()
    )
    for (const session of sim.world.sessions) {
      expect(session.viewers.length).toBeGreaterThan(20) // more than the two pages read
      // The first page, then the second (asked for with a cursor that came back as its own next).
      const firstTwoPages = session.viewers.slice(0, 20).map((v) => v.viewerId)
      expect(heldViewerIds(db, session.eventSessionId).sort(), session.eventSessionId).toEqual(firstTwoPages.sort())
      expect(count(db, 'SELECT pages AS n FROM viewer_lists WHERE event_session_id = ?', session.eventSessionId)).toBe(2)
    }
    expect(count(db, 'SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NOT NULL')).toBe(0)
  })

  it('that repeats its only page keeps each viewer once', async () => {
    const { sim, db, client } = await setup({ liveSessions: 2, endedSessions: 0, viewersPerSession: 20, viewersPageSize: 500 })
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30, onProgress: afterListing(() => sim.faults.repeatCursors()) })

    expect(report.problems).toEqual([])
    for (const session of sim.world.sessions) {
      const held = heldViewerIds(db, session.eventSessionId)
      expect(held.sort()).toEqual(session.viewers.map((v) => v.viewerId).sort())
      expect(count(db, 'SELECT viewer_count AS n FROM viewer_lists WHERE event_session_id = ?', session.eventSessionId)).toBe(held.length)
    }
  })
})

describe('a session listing that breaks on a later page', () => {
  it('keeps the page stored before the break, and says why the pass stopped there', async () => {
    const { sim, db, client } = await setup({ liveSessions: 3, endedSessions: 6, sessionsPageSize: 4 })
    sim.faults.truncateLaterPages()
    const report = await syncPass({ ...storesOf(db), connectionId: 'c1', client, lookbackDays: 30 })

    expect(report.problems).toEqual([{ kind: 'response-format', message: expect.stringMatching(/not valid JSON/) }])
    expect(report.listed).toBe(4)
    expect(column(db, 'SELECT event_session_id AS v FROM sessions').sort()).toEqual(sim.world.sessions.slice(0, 4).map((s) => s.eventSessionId).sort())
    expect(sim.stats.count('session') + sim.stats.count('viewers')).toBe(0)
  })
})
