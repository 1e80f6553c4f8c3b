// One poll: list every session, fetch each live one, store it with a snapshot, announce it.
// The same poller serves the desktop app, the browser host and `eventwatch sync`.
import type { PollState } from '../../../shared/domain'
import type { ReportingClient, SkippedRecord } from '../api/client'
import type { Db } from '../store/db'
import { storeSessionList, storeSessionSnapshot } from '../store/sessions'
import { forEachLimited } from './limit'

export interface PollOutcome {
  at: number
  listed: number
  live: number
  snapshots: number
  skipped: SkippedRecord[]
  /** Live sessions whose detail could not be fetched this time (the rest still count). */
  failures: string[]
}

export interface PollerStatus {
  state: PollState
  lastUpdateAt: number | null
  lastError: string | null
}

export interface PollerOptions {
  connectionId: string
  intervalMs: number
  concurrency?: number
  clock?: () => number
  onPolled?: (outcome: PollOutcome) => void
  onStatus?: (status: PollerStatus) => void
}

export class Poller {
  private timer: NodeJS.Timeout | null = null
  private inFlight: Promise<PollOutcome> | null = null
  private running = false
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

  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    // A poll under way finishes first, so its own status cannot overwrite "stopped".
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
    const { connectionId } = this.options
    this.setStatus({ state: 'polling' })
    try {
      const list = await this.client.listSessions()
      const listedAt = clock()
      storeSessionList(this.db, connectionId, list.sessions, listedAt)
      const live = list.sessions.filter((s) => !s.hasEnded)
      const outcome: PollOutcome = {
        at: listedAt,
        listed: list.sessions.length,
        live: live.length,
        snapshots: 0,
        skipped: list.skipped,
        failures: []
      }
      await forEachLimited(live, this.options.concurrency ?? 4, async (item) => {
        try {
          const detail = await this.client.getSession(item.eventSessionId)
          storeSessionSnapshot(this.db, connectionId, detail, clock())
          outcome.snapshots++
        } catch (error) {
          outcome.failures.push(errorMessage(error))
        }
      })
      this.setStatus({
        state: outcome.failures.length > 0 && outcome.snapshots === 0 && live.length > 0 ? 'error' : 'ok',
        lastUpdateAt: clock(),
        lastError: outcome.failures[0] ?? null
      })
      return outcome
    } catch (error) {
      this.setStatus({ state: 'error', lastError: errorMessage(error) })
      throw error
    }
  }

  private setStatus(change: Partial<PollerStatus>): void {
    this.status = { ...this.status, ...change }
    this.options.onStatus?.(this.currentStatus)
  }
}

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))
