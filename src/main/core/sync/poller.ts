// Keeps one connection's cache current on three cadences: discovery (a full pass: the session
// list, live details, viewer lists that are due, a little back-fill), live details in between,
// and each live session's viewers on a slower clock. It can be paused, asked to refresh one
// session now, and says once when the service becomes unreachable and once when it is back,
// backing off in between. The same poller serves the desktop app, the browser host and the CLI.
// Pausing or stopping ends the unit of work in hand at once (its signal): no request after it,
// nothing half-stored.
import type { PollState } from '../../../shared/domain'
import { realTimers, type Timers } from '../../../shared/timers'
import { describeApiError, type ReportingClient } from '../api/client'
import { anySignal, CancelledError, isCancelled } from '../net/abort'
import type { EventSessionRecord } from '../api/schemas'
import type { SyncRunKind, SyncRunResult } from '../store/interface/runs'
import type { Store } from '../store/interface/store'
import type { ViewerListStore } from '../store/viewer-store'
import { refreshDetails, type DetailsReport } from './details'
import { storeDetails, storeListPages, touchListed, type Arrived } from './fetched'
import { recordedSyncPass } from './recorded-pass'
import type { SyncProblem, SyncProgress, SyncReport } from './sync-pass'
import { TouchedSessions } from './touched'

export type PollOutcome = SyncReport

export interface Cadences {
  /** The session list (and with it a full pass). */
  discoveryMs: number
  /** Each live session's record -> a snapshot. */
  detailMs: number
  /** Each live session's viewer list. */
  viewersMs: number
}

export const DEFAULT_CADENCES: Cadences = { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }
const MAX_BACKOFF_MS = 5 * 60_000

export interface PollerStatus {
  state: PollState
  lastUpdateAt: number | null
  lastError: string | null
  /** When the service became unreachable, while it still is. */
  offlineSince: number | null
}

export interface Connectivity {
  online: boolean
  at: number
  reason: string | null
}

export type { Timers }


export interface PollerOptions {
  connectionId: string
  cadences?: Partial<Cadences>
  lookbackDays?: number
  /** Ended sessions without viewers fetched per pass (default 5, so one pass stays short). */
  backfillPerPass?: number
  concurrency?: number
  clock?: () => number
  timers?: Timers
  /** Jitter source for back-off (0..1). */
  random?: () => number
  onPolled?: (outcome: PollOutcome) => void
  onDetails?: (report: DetailsReport & { at: number }) => void
  /** After every unit of work that wrote to the cache, whatever its kind, with the sessions it
   *  touched: the app judges those and pushes what changed. */
  onWork?: (kind: SyncRunKind, touched: TouchedSessions) => void
  onStatus?: (status: PollerStatus) => void
  /** A unit of work ended (a pass or a round of details, not one stopped): `failed` when it could
   *  not do its work — the service unreachable or refusing, or every request of it failed. */
  onUnitEnded?: (kind: 'discovery' | 'once' | 'details', failed: boolean) => void
  onConnectivity?: (change: Connectivity) => void
  onProgress?: (progress: SyncProgress) => void
  /** Where viewer lists are stored (the cache writer's thread in the app); the owner closes it. */
  viewerStore: ViewerListStore
  /** Bound on one full pass (sync-pass.ts's default when absent). */
  passDeadlineMs?: number
  /** A live session's viewer list this poller has not fetched yet is due only when the cache's is
   *  older than the viewers' cadence: a server taking a connection over from another of the team
   *  goes on from what that one fetched, instead of fetching every list again in its first pass. */
  resumeViewerLists?: boolean
}

/** How a full pass goes: its run's kind, how many ended sessions it back-fills (all: undefined), its progress. */
interface PassShape {
  kind: 'discovery' | 'once'
  backfillLimit: number | undefined
  onProgress: ((progress: SyncProgress) => void) | undefined
}

/** What a unit of work stored, for its sync run. */
interface RunCounts {
  listed?: number
  snapshots?: number
  viewerLists?: number
  viewers?: number
}

export class Poller {
  private timer: unknown = null
  private inFlight: Promise<unknown> | null = null
  private currentPass: Promise<PollOutcome> | null = null
  private lastTick: Promise<void> = Promise.resolve()
  private running = false
  private paused = false
  /** Set by stop(): no unit starts after it, not even one queued before. */
  private stopped = false
  /** The signal of the unit of work in hand: stop and pause abort it. */
  private unit: AbortController | null = null
  private nextDiscoveryAt = 0
  private nextDetailAt = 0
  private failures = 0
  private readonly viewersFetchedAt = new Map<string, number>()
  private status: PollerStatus = { state: 'starting', lastUpdateAt: null, lastError: null, offlineSince: null }
  private readonly cadences: Cadences
  private readonly clock: () => number
  private readonly timers: Timers
  private readonly viewerStore: ViewerListStore

  constructor(
    private readonly store: Store,
    private readonly client: ReportingClient,
    private readonly options: PollerOptions
  ) {
    this.cadences = { ...DEFAULT_CADENCES, ...options.cadences }
    this.clock = options.clock ?? Date.now
    this.timers = options.timers ?? realTimers
    this.viewerStore = options.viewerStore
  }

  get currentStatus(): PollerStatus {
    return { ...this.status }
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Starts polling; the first pass begins at once. */
  start(): void {
    if (this.running) return
    this.running = true
    this.stopped = false
    this.nextDiscoveryAt = 0 // whatever it knew may be stale: a full pass first
    if (!this.paused) this.lastTick = this.tick()
  }

  /** Stops polling: the unit of work in hand ends at once (what is whole is stored). */
  async stop(): Promise<void> {
    this.running = false
    this.stopped = true
    this.cancelTimer()
    this.unit?.abort()
    await this.inFlight?.catch(() => undefined)
    this.setStatus({ state: 'stopped' })
  }

  /**
   * Stops at the boundary of the unit of work in hand: none begins after it, the one in hand ends
   * as it would have (stored whole), then the poller stops. `signal` cuts the wait short, as stop.
   */
  async stopAtBoundary(signal?: AbortSignal): Promise<void> {
    this.running = false
    this.cancelTimer()
    if (!signal?.aborted) {
      let cut = (): void => undefined
      const aborted = new Promise<void>((resolve) => (cut = resolve))
      signal?.addEventListener('abort', cut, { once: true })
      await Promise.race([this.inFlight?.catch(() => undefined), aborted])
      signal?.removeEventListener('abort', cut)
    }
    await this.stop()
  }

  /** No request from now on: the unit in hand ends at once, as for stop. */
  pause(): void {
    if (this.paused) return
    this.paused = true
    this.cancelTimer()
    this.unit?.abort()
    this.setStatus({ state: 'paused' })
  }

  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.nextDiscoveryAt = 0 // the cache went stale while paused: a full pass first
    this.setStatus({ state: this.status.offlineSince ? 'offline' : 'ok' })
    if (this.running) this.schedule(0)
  }

  /** A full pass now (sharing one under way), whatever the cadences say. */
  pollOnce(): Promise<PollOutcome> {
    return this.discovery(false)
  }

  /**
   * One complete pass now, as `eventwatch sync --once` makes it: recorded as a 'once' run, every
   * ended session without viewers back-filled, ended by `signal` as by stop. Judged like any pass.
   */
  completePass(options: { signal?: AbortSignal; onProgress?: (progress: SyncProgress) => void } = {}): Promise<PollOutcome> {
    const pass: PassShape = { kind: 'once', backfillLimit: undefined, onProgress: options.onProgress }
    return this.exclusive((unit) => this.discover(anySignal(unit, options.signal) ?? unit, pass))
  }

  /** The pass under way or queued, else a new one (`cadence`: the cadences' own, not asked for). */
  private discovery(cadence: boolean): Promise<PollOutcome> {
    this.currentPass ??= this.exclusive((signal) => this.discover(signal), cadence).finally(() => {
      this.currentPass = null
    })
    return this.currentPass
  }

  /** One session's record, snapshot and viewer list, now: a unit of work like any other. */
  refreshSession(eventSessionId: string): Promise<{ snapshot: boolean; viewers: number }> {
    return this.exclusive((signal) =>
      this.recorded('refresh', async (run, touched) => {
        const now = this.clock()
        const detail = await this.client.getSession(eventSessionId, {}, { signal })
        await this.store.withTransaction((tx) => storeDetails(tx, this.options.connectionId, [{ value: detail, at: now }]))
        touched.add(eventSessionId)
        run.snapshots = 1
        const list = this.viewerStore.begin(this.options.connectionId, eventSessionId, now)
        let viewers: number
        try {
          const stream = await this.client.streamViewers(eventSessionId, (page) => list.add(page), { signal })
          viewers = await list.commit(stream.pages, this.clock())
        } catch (error) {
          await list.abandon()
          throw error
        }
        this.viewersFetchedAt.set(eventSessionId, now)
        run.viewerLists = 1
        run.viewers = viewers
        return { snapshot: true, viewers }
      })
    )
  }

  /** One date range of sessions from the service into the cache (Connections → fetch a range). */
  fetchRange(from: Date, to: Date): Promise<{ listed: number }> {
    return this.exclusive((signal) =>
      this.recorded('range', async (run, touched) => {
        run.listed = 0
        // Every page is stored as one unit when the listing is over: what arrived before a failure too.
        const pages: Arrived<EventSessionRecord[]>[] = []
        let failure: { error: unknown } | undefined
        try {
          await this.client.listSessions(
            { startedAtFrom: from, startedAtTo: to },
            { signal, onPage: (page) => pages.push({ value: page, at: this.clock() }) }
          )
        } catch (error) {
          failure = { error }
        }
        if (pages.length > 0) await this.store.withTransaction((tx) => storeListPages(tx, this.options.connectionId, pages))
        touchListed(touched, pages)
        run.listed = pages.reduce((n, page) => n + page.value.length, 0)
        if (failure) throw failure.error
        return { listed: run.listed }
      })
    )
  }

  /**
   * A unit of work with its sync run: started before its first request, finished with what it
   * stored (or its error), then announced through onWork with what it touched, even when it
   * failed halfway.
   */
  private async recorded<T>(kind: SyncRunKind, work: (run: RunCounts, touched: TouchedSessions) => Promise<T>): Promise<T> {
    const run: RunCounts = {}
    const touched = new TouchedSessions()
    const id = await this.store.withTransaction((tx) => tx.runs.start(this.options.connectionId, kind, this.clock()))
    try {
      const result = await work(run, touched)
      await this.finishRun(id, { outcome: 'ok', ...run })
      return result
    } catch (error) {
      if (isCancelled(error)) {
        await this.finishRun(id, { outcome: 'stopped', ...run })
        throw error
      }
      const problem = describeApiError(error)
      await this.finishRun(id, { outcome: run.snapshots || run.listed ? 'partial' : 'failed', ...run, problems: 1, error: problem.message })
      throw error
    } finally {
      this.options.onWork?.(kind, touched)
    }
  }

  /** A sync run's outcome, a unit of its own. */
  private async finishRun(id: number, result: SyncRunResult): Promise<void> {
    await this.store.withTransaction((tx) => tx.runs.finish(id, result, this.clock()))
  }

  /**
   * One unit at a time per connection: passes, detail ticks and refreshes never overlap. Each
   * gets its own signal, which stop and pause abort. A unit queued behind another does not start
   * after stop(), nor after pause() when it is the cadences' own (`cadence`): no request then.
   */
  private exclusive<T>(work: (signal: AbortSignal) => Promise<T>, cadence = false): Promise<T> {
    const previous = this.inFlight ?? Promise.resolve()
    const next = previous
      .catch(() => undefined)
      .then(() => {
        if (this.stopped) throw new CancelledError('polling was stopped')
        if (cadence && this.paused) throw new CancelledError('polling is paused')
        const unit = new AbortController()
        this.unit = unit
        return work(unit.signal).finally(() => {
          if (this.unit === unit) this.unit = null
        })
      })
    // The caller handles next's failure; this copy, kept for the next unit, stop() and idle(),
    // must not reject too, or a failed refreshSession is an unhandled rejection in the main process.
    const tracked = next
      .catch(() => undefined)
      .finally(() => {
        if (this.inFlight === tracked) this.inFlight = null
      })
    this.inFlight = tracked
    return next
  }

  private schedule(delayMs: number): void {
    this.cancelTimer()
    if (!this.running || this.paused) return
    this.timer = this.timers.setTimeout(() => {
      this.timer = null
      this.lastTick = this.tick()
    }, Math.max(0, delayMs))
  }

  /** Resolves when the work started by the last timer (and anything queued) has finished. */
  async idle(): Promise<void> {
    await this.lastTick
    await this.inFlight?.catch(() => undefined)
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
    this.timer = null
  }

  private async tick(): Promise<void> {
    if (!this.running || this.paused) return
    const now = this.clock()
    if (now >= this.nextDiscoveryAt) await this.discovery(true).catch(() => undefined)
    else if (now >= this.nextDetailAt) await this.exclusive((signal) => this.details(signal), true).catch(() => undefined)
    const wait = Math.min(this.nextDiscoveryAt, this.nextDetailAt) - this.clock()
    this.schedule(wait)
  }

  private async discover(signal: AbortSignal, pass = this.cadencePass()): Promise<PollOutcome> {
    const started = this.clock()
    if (!this.paused && !this.status.offlineSince) this.setStatus({ state: 'polling' })
    const report = await recordedSyncPass({
      store: this.store,
      connectionId: this.options.connectionId,
      client: this.client,
      lookbackDays: this.options.lookbackDays ?? 7,
      clock: this.clock,
      concurrency: this.options.concurrency,
      signal,
      deadlineMs: this.options.passDeadlineMs,
      backfillLimit: pass.backfillLimit,
      viewersDue: async (id) => started - (await this.viewersFetchedAtOf(id)) >= this.cadences.viewersMs,
      onProgress: pass.onProgress,
      viewerStore: this.viewerStore
    }, pass.kind)
    // Only lists that were stored count as fetched; a failed one is due again next pass.
    for (const id of report.viewerListIds) this.viewersFetchedAt.set(id, started)
    if (report.stopped) {
      // Paused or stopped: not a success, not a failure. A full pass comes first on resume.
      this.nextDiscoveryAt = 0
      this.options.onWork?.(pass.kind, report.touched)
      return report
    }
    const listingFailed = report.listed === 0 && report.problems.length > 0
    const detailsAllFailed = report.live > 0 && report.snapshots === 0 && report.problems.length > 0
    this.afterUnit(listingFailed || detailsAllFailed ? report.problems : [], report.problems[0])
    this.options.onUnitEnded?.(pass.kind, listingFailed || detailsAllFailed)
    const now = this.clock()
    this.nextDetailAt = now + this.cadences.detailMs
    this.nextDiscoveryAt = now + (this.failures > 0 ? this.backoffMs() : this.cadences.discoveryMs)
    if (this.failures > 0) this.nextDetailAt = this.nextDiscoveryAt // no detail ticks while unreachable
    this.options.onPolled?.(report)
    this.options.onWork?.(pass.kind, report.touched)
    return report
  }

  /** When this poller (or, resuming, the cache) last fetched a session's viewer list. */
  private async viewersFetchedAtOf(eventSessionId: string): Promise<number> {
    const known = this.viewersFetchedAt.get(eventSessionId)
    if (known !== undefined || !this.options.resumeViewerLists) return known ?? Number.NEGATIVE_INFINITY
    const cached = await this.store.read.viewers.listFetchedAt(this.options.connectionId, eventSessionId)
    this.viewersFetchedAt.set(eventSessionId, cached ?? Number.NEGATIVE_INFINITY)
    return cached ?? Number.NEGATIVE_INFINITY
  }

  /** The passes of the cadences (and of refresh requests): a little back-fill each. */
  private cadencePass(): PassShape {
    return { kind: 'discovery', backfillLimit: this.options.backfillPerPass ?? 5, onProgress: this.options.onProgress }
  }

  private async details(signal: AbortSignal): Promise<void> {
    const { connectionId } = this.options
    // The sessions to ask about, and the run started before the first request: one unit.
    const { ids, runId } = await this.store.withTransaction(async (tx) => ({
      ids: await tx.sessions.liveIds(connectionId),
      runId: await tx.runs.start(connectionId, 'details', this.clock())
    }))
    const report = await refreshDetails(this.store, connectionId, this.client, ids, this.clock, this.options.concurrency, signal)
    if (report.stopped) {
      await this.finishRun(runId, { outcome: 'stopped', snapshots: report.snapshots })
      this.options.onWork?.('details', report.touched)
      return
    }
    // Every session asked about failed (ids never requested, "." and "..", are no failure).
    const allFailed = report.problems.length > 0 && report.snapshots === 0
    await this.finishRun(runId, {
      outcome: allFailed ? 'failed' : report.problems.length > 0 ? 'partial' : 'ok',
      snapshots: report.snapshots,
      problems: report.problems.length,
      error: report.problems[0]?.message ?? null
    })
    this.afterUnit(allFailed ? report.problems : [], report.problems[0])
    this.options.onUnitEnded?.('details', allFailed)
    this.nextDetailAt = this.clock() + this.cadences.detailMs
    if (this.failures > 0) this.nextDiscoveryAt = this.clock() // let discovery own the back-off
    this.options.onDetails?.({ ...report, at: this.clock() })
    this.options.onWork?.('details', report.touched)
  }

  /** Bookkeeping after a unit of work: failure counting, offline/online, status. */
  private afterUnit(fatal: SyncProblem[], firstProblem: SyncProblem | undefined): void {
    const now = this.clock()
    const failure = fatal[0]
    if (!failure) {
      this.failures = 0
      if (this.status.offlineSince !== null) this.options.onConnectivity?.({ online: true, at: now, reason: null })
      this.setStatus({
        state: this.paused ? 'paused' : 'ok',
        lastUpdateAt: now,
        lastError: firstProblem?.message ?? null,
        offlineSince: null
      })
      return
    }
    this.failures++
    const unreachable = failure.kind === 'network' || failure.kind === 'server' || failure.kind === 'rate-limited'
    if (unreachable && this.status.offlineSince === null) {
      // Said once, when it happens; the UI and the tray show it until the service answers again.
      this.options.onConnectivity?.({ online: false, at: now, reason: failure.message })
    }
    this.setStatus({
      state: this.paused ? 'paused' : unreachable ? 'offline' : 'error',
      lastError: failure.message,
      offlineSince: unreachable ? (this.status.offlineSince ?? now) : null
    })
  }

  /** Exponential, with jitter, from the discovery cadence up to five minutes. */
  private backoffMs(): number {
    const base = Math.min(MAX_BACKOFF_MS, this.cadences.discoveryMs * 2 ** Math.min(this.failures - 1, 10))
    const random = this.options.random ?? Math.random
    return Math.round(base / 2 + (random() * base) / 2)
  }

  private setStatus(change: Partial<PollerStatus>): void {
    this.status = { ...this.status, ...change }
    this.options.onStatus?.(this.currentStatus)
  }
}
