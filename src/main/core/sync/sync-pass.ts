// One complete pass over one connection, in units of work that each commit whole (the network
// is never awaited inside a unit: what came back is stored once the fetching is over):
//   1. every page of sessions (the look-back window) -> one unit;
//   2. a fresh record + snapshot of each live session, and a final one of each session seen
//      ending -> fetched side by side, then one unit for all of them;
//   3. the viewer list of live sessions that are due, of sessions seen ending and of ended
//      sessions the cache holds no viewers for -> staged page by page as the pages arrive, and
//      swapped in whole when the last one lands (memory holds a few pages, never the list).
// A failure costs only its own unit; the problems met are diagnostics, stored with the next unit.
// A stop (the signal) ends the pass at once: no request after it, lists not complete are
// dropped, lists complete are committed. A deadline bounds the whole pass the same way, and is
// reported as a problem.
// A session listed twice is asked about once (a diagnostic names it), so no two fetches of one
// viewer list race each other; a listing cut short by a repeated cursor is kept as read, and
// the report says which (the run's summary names them).
import type { ErrorKind } from '../../../shared/error-kinds'
import type { ReportingClient } from '../api/client'
import { describeApiError, isAddressableId } from '../api/client'
import { ApiError } from '../api/errors'
import type { EventSessionRecord } from '../api/schemas'
import { anySignal, isCancelled } from '../net/abort'
import type { Store } from '../store/interface/store'
import type { ViewerListStore } from '../store/viewer-store'
import { distinctSessions } from './distinct-sessions'
import { storeDetails, storeListPages, touchListed, type Arrived } from './fetched'
import { forEachLimited } from './limit'
import { PendingDiagnostics } from './pending-diagnostics'
import { TouchedSessions } from './touched'

export interface SyncProblem {
  kind: ErrorKind
  message: string
}

/** A listing the service ended by repeating a cursor: what was read is kept as the whole of it. */
export interface CutShortListing {
  /** The session whose viewer list it was; null for the session list. */
  eventSessionId: string | null
  eventName: string | null
  /** Pages read before the repeat. */
  pages: number
}

export interface SyncProgress {
  phase: 'sessions' | 'details' | 'viewers'
  done: number
  total?: number
  /** Viewers fetched so far in this pass. */
  viewers: number
}

export interface SyncPassOptions {
  store: Store
  connectionId: string
  client: ReportingClient
  /** Sessions that started longer ago than this are not listed (the spec's date filter). */
  lookbackDays: number
  clock?: () => number
  concurrency?: number
  /** Stops the pass at once (SIGINT/SIGTERM, pause, quit): `stopped` in the report, not a problem. */
  signal?: AbortSignal
  /** The whole pass ends within this (default DEFAULT_PASS_DEADLINE_MS): a problem, what is whole is kept. */
  deadlineMs?: number
  /** Whether a live session's viewer list is due in this pass (default: always). */
  viewersDue?: (eventSessionId: string) => boolean | Promise<boolean>
  /** How many ended sessions without viewers to back-fill in this pass (default: all). */
  backfillLimit?: number
  onProgress?: (progress: SyncProgress) => void
  /** Where viewer lists are stored (the cache writer's thread in the app). */
  viewerStore: ViewerListStore
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
  /** Listings stored as read up to a cursor the service repeated (each also a diagnostic). */
  cutShort: CutShortListing[]
  skipped: number
  problems: SyncProblem[]
  /** True when a stop request cut the pass short (what was done is stored). */
  stopped: boolean
  /** The sessions whose record, snapshot or viewer list the pass stored: what is judged after it. */
  touched: TouchedSessions
}

/** Long enough for a session of millions of viewers; short enough that a hung service is noticed. */
export const DEFAULT_PASS_DEADLINE_MS = 15 * 60_000

function deadlineError(ms: number): ApiError {
  // Exact: a 1.5 s or 90 s deadline must not read "2 s" or "2 min".
  const span = ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`
  return new ApiError('network', 'sync', `the pass did not finish within ${span} (its deadline); what was fetched whole is kept`, undefined, undefined, 'timeout')
}

export async function syncPass(options: SyncPassOptions): Promise<SyncReport> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_PASS_DEADLINE_MS
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(deadlineError(deadlineMs)), deadlineMs)
  timer.unref?.()
  const diagnostics = new PendingDiagnostics(options.store)
  try {
    const report = await runPass(options, anySignal(options.signal, deadline.signal) as AbortSignal, diagnostics)
    await diagnostics.flush()
    return report
  } catch (error) {
    // The problems met before it failed are kept, as they were recorded when met.
    await diagnostics.flush().catch(() => undefined)
    throw error
  } finally {
    clearTimeout(timer)
  }
}

async function runPass(options: SyncPassOptions, signal: AbortSignal, diagnostics: PendingDiagnostics): Promise<SyncReport> {
  const { store, connectionId, client, viewerStore } = options
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
    cutShort: [],
    skipped: 0,
    problems: [],
    stopped: false,
    touched: new TouchedSessions()
  }
  const progress = (phase: SyncProgress['phase'], done: number, total?: number): void =>
    options.onProgress?.({ phase, done, total, viewers: report.viewers })
  const reported = new Set<unknown>()
  const fail = (error: unknown): void => {
    if (isCancelled(error)) {
      report.stopped = true // a stop someone asked for is not a failure
      return
    }
    if (error === signal.reason) {
      if (reported.has(error)) return // every lane ends with the deadline: said once
      reported.add(error)
    }
    const problem = describeApiError(error)
    report.problems.push(problem)
    diagnostics.add({ connectionId, at: clock(), kind: problem.kind, endpoint: endpointOf(error), message: problem.message })
  }
  const stopRequested = (): boolean => {
    if (!signal.aborted) return false
    if (options.signal?.aborted) report.stopped = true
    else fail(signal.reason)
    return true
  }

  // 1. Sessions: every page, stored as one unit when the listing is over (what arrived before a
  //    failure too).
  progress('sessions', 0)
  const wasLive = new Set(await store.read.sessions.liveIds(connectionId))
  const pages: Arrived<EventSessionRecord[]>[] = []
  let listingFailure: { error: unknown } | undefined
  try {
    const list = await client.listSessions(
      { startedAtFrom: new Date(clock() - options.lookbackDays * 86_400_000) },
      { signal, onPage: (page) => pages.push({ value: page, at: clock() }) }
    )
    report.skipped += list.skipped.length
    if (list.ended === 'repeated-cursor') report.cutShort.push({ eventSessionId: null, eventName: null, pages: list.pages })
  } catch (error) {
    listingFailure = { error }
  }
  const listed = pages.flatMap((page) => page.value)
  const { sessions, repeated } = distinctSessions(listed)
  if (listingFailure) fail(listingFailure.error)
  else if (repeated.length > 0) {
    diagnostics.add({ connectionId, at: clock(), kind: 'response-format', endpoint: SESSIONS_ENDPOINT, message: repeatedSessionsMessage(repeated) })
  }
  // Ids that cannot be put in a URL path are kept as listed, never asked about.
  const addressable = sessions.filter((s) => isAddressableId(s.eventSessionId))
  if (!listingFailure && addressable.length < sessions.length) {
    const refused = sessions.filter((s) => !isAddressableId(s.eventSessionId)).map((s) => JSON.stringify(s.eventSessionId))
    report.skipped += refused.length
    diagnostics.add({
      connectionId,
      at: clock(),
      kind: 'response-format',
      endpoint: SESSIONS_ENDPOINT,
      message: `session ids ${refused.join(', ')} cannot be sent in a URL path; kept as listed, their details and viewers not requested`
    })
  }
  try {
    if (pages.length > 0) await diagnostics.commit((tx) => storeListPages(tx, connectionId, pages))
  } catch (error) {
    // Nothing listed is stored: the pass cannot go on from it.
    fail(error)
    return report
  }
  touchListed(report.touched, pages)
  report.listed = sessions.length
  if (listingFailure) return report
  progress('sessions', sessions.length, sessions.length)

  // 2. Details and snapshots: live sessions, and a last look at those that just ended.
  const live = addressable.filter((s) => !s.hasEnded)
  const justEnded = addressable.filter((s) => s.hasEnded && wasLive.has(s.eventSessionId))
  report.live = sessions.filter((s) => !s.hasEnded).length
  const detailTargets = [...live, ...justEnded]
  const details: Arrived<EventSessionRecord>[] = []
  /** The sessions asked about whose record came back. */
  const detailsOf: string[] = []
  let detailsDone = 0
  await forEachLimited(detailTargets, concurrency, async (session) => {
    if (stopRequested()) return
    try {
      details.push({ value: await client.getSession(session.eventSessionId, {}, { signal }), at: clock() })
      detailsOf.push(session.eventSessionId)
    } catch (error) {
      fail(error)
    }
    progress('details', ++detailsDone, detailTargets.length)
  })
  try {
    if (details.length > 0) await diagnostics.commit((tx) => storeDetails(tx, connectionId, details))
    report.touched.addAll(detailsOf)
    report.snapshots = details.length
  } catch (error) {
    fail(error)
  }

  // 3. Viewer lists.
  const held = await store.read.viewers.sessionsWithLists(connectionId)
  const due = options.viewersDue ?? (() => true)
  const liveDue = await Promise.all(live.map(async (s) => ((await due(s.eventSessionId)) ? [s] : [])))
  const backfill = addressable
    .filter((s) => s.hasEnded && !held.has(s.eventSessionId) && !wasLive.has(s.eventSessionId))
    .slice(0, options.backfillLimit ?? Number.POSITIVE_INFINITY)
  const viewerTargets = [...liveDue.flat(), ...justEnded, ...backfill]
  let listsDone = 0
  // A lane hands a complete list's commit to the store and goes straight on to the next list,
  // so the service keeps working on our requests while SQLite writes.
  const committing = new Set<Promise<void>>()
  let escaped: { error: unknown } | undefined
  const fetchList = async (session: EventSessionRecord): Promise<void> => {
    const id = session.eventSessionId
    const list = viewerStore.begin(connectionId, id, clock())
    let stream
    try {
      stream = await client.streamViewers(id, (page) => list.add(page), { signal })
    } catch (error) {
      await list.abandon()
      fail(error)
      await diagnostics.flush()
      progress('viewers', ++listsDone, viewerTargets.length)
      return
    }
    const { skipped, pages, ended } = stream
    const committed = list.commit(pages, clock()).then(
      (viewers) => {
        report.viewerLists++
        report.viewerListIds.push(id)
        report.touched.add(id)
        if (ended === 'repeated-cursor') report.cutShort.push({ eventSessionId: id, eventName: session.eventName ?? null, pages })
        report.viewers += viewers
        report.skipped += skipped
        progress('viewers', ++listsDone, viewerTargets.length)
      },
      async (error: unknown) => {
        await list.abandon()
        fail(error)
        await diagnostics.flush()
        progress('viewers', ++listsDone, viewerTargets.length)
      }
    )
    // What escapes (a throwing progress listener) fails the pass, as it did inline.
    const tracked = committed.catch((error: unknown) => {
      escaped ??= { error }
    })
    committing.add(tracked)
    void tracked.then(() => committing.delete(tracked))
  }
  await forEachLimited(viewerTargets, concurrency, async (session) => {
    if (stopRequested()) return
    await fetchList(session)
  })
  await Promise.all(committing)
  if (escaped) throw escaped.error
  stopRequested()
  return report
}

const SESSIONS_ENDPOINT = 'GET /v1/events/sessions'
/** Repeated ids named one by one in a diagnostic; the rest are counted. */
const REPEATS_NAMED = 5

function repeatedSessionsMessage(ids: readonly string[]): string {
  const named = ids.slice(0, REPEATS_NAMED).map((id) => JSON.stringify(id.slice(0, 64)))
  const more = ids.length > REPEATS_NAMED ? ` and ${ids.length - REPEATS_NAMED} more` : ''
  const what = ids.length === 1 ? 'session' : 'sessions'
  return `${what} ${named.join(', ')}${more} listed more than once in one listing; each asked about once, as last listed`
}

function endpointOf(error: unknown): string {
  const endpoint = (error as { endpoint?: unknown }).endpoint
  return typeof endpoint === 'string' ? endpoint : 'sync'
}
