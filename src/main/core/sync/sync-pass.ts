// One complete pass over one connection, in units of work that each commit whole:
//   1. every page of sessions (the look-back window) -> one transaction;
//   2. a fresh record + snapshot of each live session, and a final one of each session seen
//      ending -> one transaction per session;
//   3. the viewer list (every page) of live sessions that are due, of sessions seen ending and
//      of ended sessions the cache holds no viewers for -> one transaction per session.
// A failure costs only its own unit; a stop request (signal) lets the unit in hand finish.
import type { ErrorKind } from '../../../shared/error-kinds'
import type { ReportingClient, ViewerList } from '../api/client'
import { describeApiError } from '../api/client'
import type { EventSessionRecord } from '../api/schemas'
import type { Db } from '../store/db'
import { recordDiagnostic } from '../store/diagnostics'
import { liveSessionIds, storeSessionList, storeSessionSnapshot } from '../store/sessions'
import { inThreadViewerStore, type ViewerListStore } from '../store/viewer-store'
import { sessionsWithViewerLists } from '../store/viewers'
import { forEachLimited } from './limit'

export interface SyncProblem {
  kind: ErrorKind
  message: string
}

export interface SyncProgress {
  phase: 'sessions' | 'details' | 'viewers'
  done: number
  total?: number
  /** Viewers fetched so far in this pass. */
  viewers: number
}

export interface SyncPassOptions {
  db: Db
  connectionId: string
  client: ReportingClient
  /** Sessions that started longer ago than this are not listed (the spec's date filter). */
  lookbackDays: number
  clock?: () => number
  concurrency?: number
  signal?: AbortSignal
  /** Whether a live session's viewer list is due in this pass (default: always). */
  viewersDue?: (eventSessionId: string) => boolean
  /** How many ended sessions without viewers to back-fill in this pass (default: all). */
  backfillLimit?: number
  onProgress?: (progress: SyncProgress) => void
  /** Where viewer lists are stored (default: on this thread). */
  viewerStore?: ViewerListStore
}

export interface SyncReport {
  at: number
  listed: number
  live: number
  snapshots: number
  viewerLists: number
  viewers: number
  /** Sessions whose viewer list was stored in this pass. */
  viewerListIds: string[]
  skipped: number
  problems: SyncProblem[]
  /** True when a stop request cut the pass short (what was done is stored). */
  stopped: boolean
}

export async function syncPass(options: SyncPassOptions): Promise<SyncReport> {
  const { db, connectionId, client, signal } = options
  const clock = options.clock ?? Date.now
  const concurrency = options.concurrency ?? 4
  const report: SyncReport = {
    at: clock(),
    listed: 0,
    live: 0,
    snapshots: 0,
    viewerLists: 0,
    viewers: 0,
    viewerListIds: [],
    skipped: 0,
    problems: [],
    stopped: false
  }
  const progress = (phase: SyncProgress['phase'], done: number, total?: number): void =>
    options.onProgress?.({ phase, done, total, viewers: report.viewers })
  const fail = (error: unknown): void => {
    const problem = describeApiError(error)
    report.problems.push(problem)
    recordDiagnostic(db, { connectionId, at: clock(), kind: problem.kind, endpoint: endpointOf(error), message: problem.message })
  }
  const stopRequested = (): boolean => {
    if (signal?.aborted) report.stopped = true
    return report.stopped
  }

  // 1. Sessions.
  progress('sessions', 0)
  const wasLive = cachedLiveSessions(db, connectionId)
  let sessions: EventSessionRecord[]
  try {
    const list = await client.listSessions({ startedAtFrom: new Date(clock() - options.lookbackDays * 86_400_000) })
    sessions = list.sessions
    report.skipped += list.skipped.length
    storeSessionList(db, connectionId, sessions, clock())
  } catch (error) {
    fail(error)
    return report
  }
  report.listed = sessions.length
  progress('sessions', sessions.length, sessions.length)

  // 2. Details and snapshots: live sessions, and a last look at those that just ended.
  const live = sessions.filter((s) => !s.hasEnded)
  const justEnded = sessions.filter((s) => s.hasEnded && wasLive.has(s.eventSessionId))
  report.live = live.length
  const detailTargets = [...live, ...justEnded]
  let detailsDone = 0
  await forEachLimited(detailTargets, concurrency, async (session) => {
    if (stopRequested()) return
    try {
      const detail = await client.getSession(session.eventSessionId)
      storeSessionSnapshot(db, connectionId, detail, clock())
      report.snapshots++
    } catch (error) {
      fail(error)
    }
    progress('details', ++detailsDone, detailTargets.length)
  })

  // 3. Viewer lists.
  const held = sessionsWithViewerLists(db, connectionId)
  const due = options.viewersDue ?? (() => true)
  const backfill = sessions
    .filter((s) => s.hasEnded && !held.has(s.eventSessionId) && !wasLive.has(s.eventSessionId))
    .slice(0, options.backfillLimit ?? Number.POSITIVE_INFINITY)
  const viewerTargets = [...live.filter((s) => due(s.eventSessionId)), ...justEnded, ...backfill]
  let listsDone = 0
  // A lane hands each list to the store and goes straight on to fetch its next one, so the
  // service keeps working on our requests while SQLite writes (storing takes about as long as
  // fetching). Still one transaction per list.
  const viewerStore = options.viewerStore ?? inThreadViewerStore(db)
  const storing = new Set<Promise<void>>()
  let escaped: { error: unknown } | undefined
  const store = (session: EventSessionRecord, list: ViewerList): Promise<void> => {
    // Only the counts outlive the hand-over: the parsed records can go while the list is written.
    const viewers = list.viewers.length
    const skipped = list.skipped.length
    return viewerStore.store(connectionId, session.eventSessionId, list.viewers, clock(), list.pages).then(
      () => {
        report.viewerLists++
        report.viewerListIds.push(session.eventSessionId)
        report.viewers += viewers
        report.skipped += skipped
        progress('viewers', ++listsDone, viewerTargets.length)
      },
      (error: unknown) => {
        fail(error)
        progress('viewers', ++listsDone, viewerTargets.length)
      }
    )
  }
  // Fetches a list and hands it over; undefined when the fetch failed. Its own function, so the
  // lane does not hold the parsed list while it waits on the store. (The store's promise comes
  // back boxed: an async function would otherwise wait for it.)
  const fetchAndStore = async (session: EventSessionRecord): Promise<{ stored: Promise<void> } | undefined> => {
    let list: ViewerList
    try {
      list = await client.listViewers(session.eventSessionId)
    } catch (error) {
      fail(error)
      progress('viewers', ++listsDone, viewerTargets.length)
      return undefined
    }
    // What escapes a store (a throwing progress listener) fails the pass, as it did inline.
    const stored = store(session, list).catch((error: unknown) => {
      escaped ??= { error }
    })
    return { stored }
  }
  await forEachLimited(viewerTargets, concurrency, async (session) => {
    if (stopRequested()) return
    const stored = (await fetchAndStore(session))?.stored
    if (!stored) return
    storing.add(stored)
    void stored.then(() => storing.delete(stored))
    // Lists fetched but not yet stored stay few: memory is bounded by the lanes.
    if (storing.size >= concurrency) await stored
  })
  // A stop request lets the lists in hand be stored.
  await Promise.all(storing)
  if (escaped) throw escaped.error
  stopRequested()
  return report
}

function cachedLiveSessions(db: Db, connectionId: string): Set<string> {
  return new Set(liveSessionIds(db, connectionId))
}

function endpointOf(error: unknown): string {
  const endpoint = (error as { endpoint?: unknown }).endpoint
  return typeof endpoint === 'string' ? endpoint : 'sync'
}
