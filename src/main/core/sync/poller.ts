// Keeps one connection's cache current: a sync pass every interval, viewer lists on their own
// slower cadence, a few past sessions back-filled each pass. The same poller serves the
// desktop app, the browser host and `eventwatch sync`.
import type { PollState } from '../../../shared/domain'
import type { ReportingClient } from '../api/client'
import type { Db } from '../store/db'
import { syncPass, type SyncProgress, type SyncReport } from './sync-pass'

export type PollOutcome = SyncReport

export interface PollerStatus {
  state: PollState
  lastUpdateAt: number | null
  lastError: string | null
}

export interface PollerOptions {
  connectionId: string
  /** Cadence of the session list and live details. */
  intervalMs: number
  /** Cadence of each live session's viewer list (default 60 s). */
  viewersIntervalMs?: number
  lookbackDays?: number
  /** Ended sessions without viewers fetched per pass (default 5, so one pass stays short). */
  backfillPerPass?: number
  concurrency?: number
  clock?: () => number
  onPolled?: (outcome: PollOutcome) => void
  onStatus?: (status: PollerStatus) => void
  onProgress?: (progress: SyncProgress) => void
}

export class Poller {
  private timer: NodeJS.Timeout | null = null
  private inFlight: Promise<PollOutcome> | null = null
  private running = false
  private stopping: AbortController | null = null
  private readonly viewersFetchedAt = new Map<string, number>()
  private status: PollerStatus = { state: 'starting', lastUpdateAt: null, lastError: null }

  constructor(
    private readonly db: Db,
    private readonly client: ReportingClient,
    private readonly options: PollerOptions
  ) {}

  get currentStatus(): PollerStatus {
    return { ...this.status }
  }

  /** Polls now (sharing a poll already under way) and resolves with what it stored. */
  pollOnce(): Promise<PollOutcome> {
    if (!this.inFlight) {
      this.inFlight = this.poll().finally(() => {
        this.inFlight = null
      })
      // Announced once the poll is no longer in flight, so a listener asking for a refresh
      // gets a new poll rather than this finished one.
      this.inFlight.then((outcome) => this.options.onPolled?.(outcome), () => undefined)
    }
    return this.inFlight
  }

  start(): void {
    if (this.running) return
    this.running = true
    void this.loop()
  }

  /** Stops polling; the unit of work in hand finishes and is stored first. */
  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.stopping?.abort()
    await this.inFlight?.catch(() => undefined)
    this.setStatus({ state: 'stopped' })
  }

  private async loop(): Promise<void> {
    if (!this.running) return
    await this.pollOnce().catch(() => undefined) // the status already carries the error
    if (this.running) this.timer = setTimeout(() => void this.loop(), this.options.intervalMs)
  }

  private async poll(): Promise<PollOutcome> {
    const clock = this.options.clock ?? Date.now
    const viewersInterval = this.options.viewersIntervalMs ?? 60_000
    this.stopping = new AbortController()
    this.setStatus({ state: 'polling' })
    const started = clock()
    const report = await syncPass({
      db: this.db,
      connectionId: this.options.connectionId,
      client: this.client,
      lookbackDays: this.options.lookbackDays ?? 7,
      clock,
      concurrency: this.options.concurrency,
      signal: this.stopping.signal,
      backfillLimit: this.options.backfillPerPass ?? 5,
      viewersDue: (id) => started - (this.viewersFetchedAt.get(id) ?? Number.NEGATIVE_INFINITY) >= viewersInterval,
      onProgress: this.options.onProgress
    })
    // Only lists that were stored count as fetched; a failed one is due again next pass.
    for (const id of report.viewerListIds) this.viewersFetchedAt.set(id, started)
    const firstProblem = report.problems[0]
    const nothingWorked = report.listed === 0 && firstProblem !== undefined
    const detailsAllFailed = report.live > 0 && report.snapshots === 0 && firstProblem !== undefined
    this.setStatus(
      nothingWorked || detailsAllFailed
        ? { state: 'error', lastError: firstProblem?.message ?? null }
        : { state: 'ok', lastUpdateAt: clock(), lastError: firstProblem?.message ?? null }
    )
    return report
  }

  private setStatus(change: Partial<PollerStatus>): void {
    this.status = { ...this.status, ...change }
    this.options.onStatus?.(this.currentStatus)
  }
}

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
