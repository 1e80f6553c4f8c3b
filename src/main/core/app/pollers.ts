// One poller per data source, and the app's status as the sum of theirs: an operator sees
// the worst state and the oldest update, never a rosier picture than the truth.
import type { Status } from '../../../shared/domain'
import { AlertEvaluator, type Evaluation } from '../alerts/evaluator'
import { alertsChanged } from '../alerts/page'
import type { Db } from '../store/db'
import { countSessions } from '../store/sessions'
import { Poller, type Cadences, type PollerStatus, type Timers } from '../sync/poller'
import type { DataSource } from './demo-source'
import type { EventHub } from './event-hub'

export interface PollerGroupOptions {
  /** One clock for the pollers and the alert rules; tests move it by hand. */
  clock?: () => number
  timers?: Timers
}

export class PollerGroup {
  private running: { source: DataSource; poller: Poller }[] = []
  private pausedAll = false
  private readonly clock: () => number
  /** Judges every poll's snapshots against the alert rules. */
  private readonly alerts: AlertEvaluator

  constructor(
    private readonly db: Db,
    private readonly hub: EventHub,
    private cadences: Partial<Cadences>,
    private readonly options: PollerGroupOptions = {}
  ) {
    this.clock = options.clock ?? Date.now
    this.alerts = new AlertEvaluator(db, this.clock)
  }

  /** Takes effect for pollers started from now on (the app restarts them). */
  setCadences(cadences: Partial<Cadences>): void {
    this.cadences = cadences
  }

  get sources(): DataSource[] {
    return this.running.map((r) => r.source)
  }

  start(sources: DataSource[]): void {
    // After a unit of work (a pass or a round of details): the sessions, then the alert rules.
    const afterWork = (source: DataSource, poller: Poller, at: number): void => {
      const counts = countSessions(this.db)
      this.hub.emit('sessionsChanged', { at: new Date(at).toISOString(), liveCount: counts.live, storedCount: counts.stored })
      this.evaluate(source, poller)
    }
    this.running = sources.map((source) => {
      const poller = new Poller(this.db, source.client, {
        connectionId: source.target.id,
        cadences: this.cadences,
        lookbackDays: source.lookbackDays,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
        ...(this.options.timers ? { timers: this.options.timers } : {}),
        onStatus: () => this.hub.emit('statusChanged', this.status()),
        onPolled: (report) => afterWork(source, poller, report.at),
        onDetails: (report) => afterWork(source, poller, report.at),
        onConnectivity: (change) =>
          this.hub.emit('connectivityChanged', {
            connectionId: source.target.id,
            connectionName: source.target.name,
            online: change.online,
            at: new Date(change.at).toISOString(),
            reason: change.reason
          })
      })
      if (this.pausedAll) poller.pause()
      poller.start()
      return { source, poller }
    })
    this.forgetUnwatched()
  }

  /** Alerts after a unit of work; one push for all that fired or resolved in it. */
  private evaluate(source: DataSource, poller: Poller): void {
    try {
      const result = this.alerts.evaluate(source.target.id, poller.currentStatus.lastUpdateAt)
      if (result.changed) this.pushAlerts(result)
    } catch (error) {
      // An alert that cannot be stored must not stop polling; the status says why.
      this.hub.emit('statusChanged', { ...this.status(), lastError: `alerts: ${error instanceof Error ? error.message : String(error)}` })
    }
  }

  private pushAlerts(change: Pick<Evaluation, 'fired' | 'resolved'>): void {
    this.hub.emit('alertsChanged', alertsChanged(this.db, this.clock(), change, this.pollingPaused()))
  }

  private forgetUnwatched(): void {
    try {
      const result = this.alerts.forgetUnwatched(this.running.map((r) => r.source.target.id))
      if (result.changed) this.pushAlerts(result)
    } catch {
      // Best effort: the next start tries again.
    }
  }

  /** Whether every connection's polling is paused: the tray shows "paused". */
  pollingPaused(): boolean {
    return this.running.length > 0 && this.running.every((r) => r.poller.isPaused)
  }

  /** Stops every poller (each finishes its unit of work) and releases the sources. */
  async stop(): Promise<void> {
    const stopping = this.running
    this.running = []
    await Promise.all(stopping.map((r) => r.poller.stop()))
    await Promise.all(stopping.map((r) => r.source.close()))
  }

  /** Resolves when every poller's work in hand has finished (tests moving time by hand). */
  async idle(): Promise<void> {
    await Promise.all(this.running.map((r) => r.poller.idle()))
  }

  refreshNow(): void {
    for (const { poller } of this.running) void poller.pollOnce().catch(() => undefined)
  }

  /** Pauses or resumes one connection, or all of them (and any started later) when none is named. */
  setPaused(paused: boolean, connectionId?: string): void {
    if (connectionId === undefined) this.pausedAll = paused
    for (const { source, poller } of this.running) {
      if (connectionId !== undefined && source.target.id !== connectionId) continue
      if (paused) poller.pause()
      else poller.resume()
    }
    this.hub.emit('statusChanged', this.status())
    this.pushAlerts({ fired: [], resolved: [] })
  }

  refreshSession(connectionId: string, eventSessionId: string): Promise<{ viewers: number }> {
    const entry = this.running.find((r) => r.source.target.id === connectionId)
    if (!entry) throw new Error(`connection ${connectionId} is not being polled`)
    return entry.poller.refreshSession(eventSessionId)
  }

  status(): Status {
    const statuses = this.running.map((r) => r.poller.currentStatus)
    const demo = this.running.length > 0 && this.running.every((r) => r.source.isDemo)
    const offline = statuses.map((s) => s.offlineSince).filter((t): t is number => t !== null)
    return {
      mode: demo ? 'demo' : 'connected',
      connectionName: this.running.map((r) => r.source.target.name).join(', ') || 'No connection',
      pollState: worstState(statuses),
      lastUpdateAt: oldestUpdate(statuses),
      lastError: statuses.find((s) => s.lastError)?.lastError ?? null,
      offlineSince: offline.length ? new Date(Math.min(...offline)).toISOString() : null,
      paused: this.pollingPaused(),
      pollIntervalSeconds: (this.cadences.detailMs ?? 15_000) / 1000
    }
  }
}

const STATE_ORDER: PollerStatus['state'][] = ['offline', 'error', 'starting', 'polling', 'paused', 'stopped', 'ok']

function worstState(statuses: PollerStatus[]): PollerStatus['state'] {
  for (const state of STATE_ORDER) if (statuses.some((s) => s.state === state)) return state
  return 'stopped'
}

function oldestUpdate(statuses: PollerStatus[]): string | null {
  if (statuses.length === 0 || statuses.some((s) => s.lastUpdateAt === null)) return null
  return new Date(Math.min(...statuses.map((s) => s.lastUpdateAt as number))).toISOString()
}
