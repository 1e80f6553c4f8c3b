// One poller per data source, and the app's status from theirs: each connection's own verdict
// (core/sync/connection-status.ts) and the app's summed from them, pushed whenever one changes.
import type { Status } from '../../../shared/domain'
import { nothingApplied } from '../alerts/apply'
import type { UnconfirmedConnection } from '../alerts/situation'
import type { AlertOutbox } from '../alerts/alert-changes'
import type { Store } from '../store/interface/store'
import type { ConnectionRecord } from '../store/interface/connections'
import { isPollingPaused } from '../store/poller-status'
import type { ViewerListStore } from '../store/viewer-store'
import { decideConnectionStatuses, decidePollSummary, type ConnectionFacts } from '../sync/connection-status'
import { Poller, type Cadences, type PollerStatus, type Timers } from '../sync/poller'
import type { TouchedSessions } from '../sync/touched'
import type { SyncProgress, SyncReport } from '../sync/sync-pass'
import type { ConnectionTarget } from '../api/connection'
import type { DataSource } from './demo-source'
import type { EventHub } from './event-hub'
import { Monitor } from './monitor'
import { startBlindClock } from './blind-clock'
import { realTimers } from '../../../shared/timers'
import type { CoreMetrics } from '../metrics/metrics'

export interface PollerGroupOptions {
  /** One clock for the pollers and the alert rules; tests move it by hand. */
  clock?: () => number
  timers?: Timers
  /** Passes only when asked (completePasses, refreshes), none on the cadences: `eventwatch sync --once`. */
  passesOnRequest?: boolean
  /** Bound on one full pass (sync-pass.ts's default when absent). */
  passDeadlineMs?: number
  /** After each full pass of a connection, what it fetched (the CLI's summary lines). */
  onPolled?: (connection: ConnectionTarget, report: SyncReport) => void
  /** Where every poller stores viewer lists (store/viewer-lists-of.ts: on SQLite the cache writer's
   *  thread, on PostgreSQL the database's own COPY). */
  viewerStore: ViewerListStore
  /** Where alert changes queue their webhook deliveries, in the same transaction (none: no webhooks). */
  outbox?: AlertOutbox
  /** What the process counts of itself (GET /metrics): each poll and its failure, each push's lag. */
  metrics?: CoreMetrics
}

/** What one connection's complete pass fetched. */
export interface CompletedPass {
  connection: ConnectionTarget
  report: SyncReport
}

export class PollerGroup {
  private running: { source: DataSource; poller: Poller }[] = []
  private stopBlindClock: (() => void) | undefined
  /** The clock's tick under way (alerts due, situation, repeats): the next tick skips while it runs. */
  private ticking: Promise<void> | null = null
  /** The end of what the connections polled changing left open, under way. */
  private changing: Promise<void> = Promise.resolve()
  /** The verdicts last pushed: time alone (a connection going stale) changes them too. */
  private verdictsPushed = ''
  private readonly clock: () => number
  /** Per connection polled, its newest poll in the cache when it started. */
  private cachedPolls = new Map<string, number>()
  /** The saved connections switched off, as they were when polling started. */
  private switchedOff: ConnectionRecord[] = []
  /** Judges every unit of work (alerts, situation, live rows) and pushes what changed. */
  readonly monitor: Monitor

  /** A group whose Monitor has begun its epochs (Monitor.begin): nothing polls yet. */
  static async open(store: Store, hub: EventHub, cadences: Partial<Cadences>, options: PollerGroupOptions): Promise<PollerGroup> {
    // The Monitor asks the group what it polls: each is made with the other.
    const made: { group?: PollerGroup } = {}
    const monitor = await Monitor.begin(store, hub, {
      clock: options.clock ?? Date.now,
      polled: () => made.group?.running.map((r) => r.source.target.id) ?? [],
      unconfirmed: () => made.group?.unconfirmed() ?? [],
      pollingPaused: () => made.group?.pollingPaused() ?? false,
      ...(options.outbox ? { outbox: options.outbox } : {}),
      ...(options.metrics ? { pushed: (event, seconds) => options.metrics!.pushed(event, seconds) } : {})
    })
    made.group = new PollerGroup(store, hub, cadences, options, monitor)
    return made.group
  }

  private constructor(
    /** Where the polls' units of work go (sessions, snapshots, sync runs, diagnostics, poller
     *  status), and where the alerts are judged and stored (the Monitor's). */
    private readonly store: Store,
    private readonly hub: EventHub,
    private cadences: Partial<Cadences>,
    private readonly options: PollerGroupOptions,
    monitor: Monitor
  ) {
    this.clock = options.clock ?? Date.now
    this.monitor = monitor
  }

  /** Takes effect for pollers started from now on (the app restarts them). */
  setCadences(cadences: Partial<Cadences>): void {
    this.cadences = cadences
  }

  get sources(): DataSource[] {
    return this.running.map((r) => r.source)
  }

  /** Starts a poller per source; resolves once what the connections polled changing ended
   *  (alerts left open by the others) is stored and pushed. */
  async start(sources: DataSource[]): Promise<void> {
    // An operator's pause is a row (store/poller-status.ts): it holds across a restart.
    const paused = await this.store.read.coreState.pausedPolling()
    // What the status says beside the pollers' own: the cache's newest poll of each (this run's
    // come from the pollers), and the saved connections switched off (a change restarts polling).
    const newest = await Promise.all(sources.map(async (s) => [s.target.id, await this.store.read.sessions.newestPollAt(s.target.id)] as const))
    this.cachedPolls = new Map(newest.flatMap(([id, at]) => (at === null ? [] : [[id, at] as const])))
    this.switchedOff = (await this.store.read.connections.list()).filter((c) => !c.enabled)
    // After a unit of work (a pass, a round of details, a refresh, a range): the alerts, then the
    // rows, of the sessions it touched. On the clock's tick, every session of a connection, only
    // when time alone changed its alerts (Monitor.dueByClock). The Monitor judges one connection's
    // units in turn: the judgement of one has finished before the next one's begins.
    const afterWork = async (source: DataSource, poller: Poller, touched: TouchedSessions | 'if due by the clock'): Promise<void> => {
      const connectionId = source.target.id
      const lastSuccessAt = poller.currentStatus.lastUpdateAt
      try {
        if (touched !== 'if due by the clock') await this.monitor.afterWork(connectionId, lastSuccessAt, touched)
        else if (await this.monitor.dueByClock(connectionId, lastSuccessAt)) await this.monitor.afterWork(connectionId, lastSuccessAt)
      } catch (error) {
        // An alert that cannot be stored must not stop polling; the status says why.
        const problem = `alerts: ${error instanceof Error ? error.message : String(error)}`
        this.hub.emit('statusChanged', { ...this.status(), lastError: problem, problem })
      }
    }
    this.running = sources.map((source) => {
      const poller = new Poller(this.store, source.client, {
        connectionId: source.target.id,
        cadences: this.cadences,
        lookbackDays: source.lookbackDays,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
        ...(this.options.timers ? { timers: this.options.timers } : {}),
        viewerStore: this.options.viewerStore,
        passDeadlineMs: this.options.passDeadlineMs,
        onPolled: (report) => this.options.onPolled?.(source.target, report),
        onStatus: (status) => {
          this.recordStatus(source.target.id, status)
          this.publishStatus()
          this.monitor.statusChanged().catch((error: unknown) => console.error('eventwatch: pushing the situation failed', error))
        },
        onWork: (_kind, touched) => void afterWork(source, poller, touched),
        onUnitEnded: (kind, failed) => this.options.metrics?.pollEnded(source.target, kind, failed),
        onConnectivity: (change) =>
          this.hub.emit('connectivityChanged', {
            connectionId: source.target.id,
            connectionName: source.target.name,
            online: change.online,
            at: new Date(change.at).toISOString(),
            reason: change.reason
          })
      })
      if (isPollingPaused(paused, source.target.id)) poller.pause()
      if (!this.options.passesOnRequest) poller.start()
      return { source, poller }
    })
    // Best effort: the next start tries again.
    this.changing = this.monitor.pollersChanged().catch(() => undefined)
    // Between polls too (back-off can be minutes): only what time alone changes is judged — a
    // connection whose blind alert or snooze is due in full (paused ones skipped), the situation
    // if a window or a pause began or ended, staleness, repeats. A quiet tick reads no session.
    this.stopBlindClock?.()
    this.stopBlindClock = startBlindClock(this.options.timers ?? realTimers, () => {
      if (this.ticking) return
      this.ticking = this.clockTick(afterWork).finally(() => (this.ticking = null))
    })
    return this.changing
  }

  /** One tick of the 10 s clock, in order: the connections due, the status, the situation, repeats. */
  private async clockTick(afterWork: (source: DataSource, poller: Poller, touched: 'if due by the clock') => Promise<void>): Promise<void> {
    await Promise.all(this.running.filter(({ poller }) => !poller.isPaused).map(({ source, poller }) => afterWork(source, poller, 'if due by the clock')))
    this.publishStatusIfChanged()
    try {
      await this.monitor.situationByClock()
    } catch (error) {
      console.error('eventwatch: pushing the situation on the clock failed', error)
    }
    try {
      await this.monitor.repeatTick()
    } catch (error) {
      console.error('eventwatch: repeating critical alerts failed', error)
    }
  }

  /**
   * One complete pass of every connection polled, side by side (`eventwatch sync --once`): each
   * judged as it ends, like any unit of work; `signal` ends them as stop does.
   */
  async completePasses(options: { signal?: AbortSignal; onProgress?: (progress: SyncProgress) => void } = {}): Promise<CompletedPass[]> {
    const passes = await Promise.all(this.running.map(async ({ source, poller }) => ({ connection: source.target, report: await poller.completePass(options) })))
    await this.monitor.judged()
    return passes
  }

  /**
   * Judges a polled connection's alerts again now, without polling (an operator muted or unmuted
   * a session: it takes effect at once, not at the next poll), then pushes what changed.
   */
  async reevaluate(connectionId: string): Promise<void> {
    const poller = this.pollerOf(connectionId)
    if (poller) await this.monitor.afterWork(connectionId, poller.currentStatus.lastUpdateAt)
    else await this.monitor.publishBoard()
  }

  /** The poller of a polled connection, if it is polled. */
  pollerOf(connectionId: string): Poller | undefined {
    return this.running.find((r) => r.source.target.id === connectionId)?.poller
  }

  /** Polled connections not confirmed: never polled successfully yet (paused before any), or offline now. */
  private unconfirmed(): UnconfirmedConnection[] {
    return this.running.flatMap(({ source, poller }) => {
      const status = poller.currentStatus
      const why = status.offlineSince !== null ? 'offline' : status.lastUpdateAt !== null ? null : poller.isPaused ? 'paused' : 'connecting'
      return why ? [{ connectionId: source.target.id, connectionName: source.target.name, why }] : []
    })
  }

  /** Whether every connection's polling is paused: the tray shows "paused". */
  pollingPaused(): boolean {
    return this.running.length > 0 && this.running.every((r) => r.poller.isPaused)
  }

  /** Stops every poller (each finishes its unit of work) and releases the sources. */
  async stop(): Promise<void> {
    this.stopBlindClock?.()
    this.stopBlindClock = undefined
    const stopping = this.running
    this.running = []
    await Promise.all(stopping.map((r) => r.poller.stop()))
    await this.judged()
    await Promise.all(stopping.map((r) => r.source.close()))
  }

  /** Resolves when every poller's work in hand has finished and was judged (tests moving time by hand). */
  async idle(): Promise<void> {
    await Promise.all(this.running.map((r) => r.poller.idle()))
    await this.judged()
  }

  /** The judgements, clock tick and pushes under way have finished (a poller may still be at
   *  work: tests whose poller waits on their clock). */
  async judged(): Promise<void> {
    await this.changing
    await this.ticking
    await this.monitor.judged()
  }

  refreshNow(): void {
    for (const { poller } of this.running) void poller.pollOnce().catch(() => undefined)
  }

  /** Pauses or resumes one connection, or all of them (and any started later) when none is named;
   *  the pause is stored first, so a restarted core starts paused. */
  async setPaused(paused: boolean, connectionId?: string): Promise<void> {
    await this.store.withTransaction((tx) => tx.coreState.setPollingPaused(paused, this.clock(), connectionId))
    for (const { source, poller } of this.running) {
      if (connectionId !== undefined && source.target.id !== connectionId) continue
      if (paused) poller.pause()
      else poller.resume()
    }
    this.publishStatus()
    await this.monitor.publishAlerts(nothingApplied())
  }

  /** Answers once the refresh has been judged (its alerts and its row pushed). */
  async refreshSession(connectionId: string, eventSessionId: string): Promise<{ viewers: number }> {
    const poller = this.pollerOf(connectionId)
    if (!poller) throw new Error(`connection ${connectionId} is not being polled`)
    try {
      return await poller.refreshSession(eventSessionId)
    } finally {
      await this.monitor.judged(connectionId)
    }
  }

  /**
   * One date range of a connection's sessions into the cache, through its poller: the one writer
   * of that connection. A connection not polled now (disabled) gets a poller of its own for this
   * one unit of work, never started; its rows are pushed, its alerts not judged (nothing watches it).
   */
  async fetchRange(source: DataSource, from: Date, to: Date): Promise<{ listed: number }> {
    const polled = this.pollerOf(source.target.id)
    if (polled) {
      try {
        return await polled.fetchRange(from, to)
      } finally {
        await this.monitor.judged(source.target.id)
      }
    }
    const once = new Poller(this.store, source.client, {
      connectionId: source.target.id,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      viewerStore: this.options.viewerStore,
      onWork: (_kind, touched) =>
        void this.monitor.publishBoard({ connectionId: source.target.id, touched }).catch((error: unknown) => {
          console.error('eventwatch: pushing the live rows of a fetched range failed', error)
        })
    })
    try {
      return await once.fetchRange(from, to)
    } finally {
      await this.monitor.board.pushed()
    }
  }

  /** The newest poll the cache remembers of the connections polled now: this run's, else what
   *  the cache held when they started. */
  private lastGoodAt(): string | null {
    const times = this.running
      .map((r) => Math.max(r.poller.currentStatus.lastUpdateAt ?? Number.NEGATIVE_INFINITY, this.cachedPolls.get(r.source.target.id) ?? Number.NEGATIVE_INFINITY))
      .filter((t) => t !== Number.NEGATIVE_INFINITY)
    return times.length ? new Date(Math.max(...times)).toISOString() : null
  }


  /** Keeps a poller's status as a row, for what does not run it (a unit of its own, in the order
   *  said); a write that fails stops no polling. */
  private recordStatus(connectionId: string, status: PollerStatus): void {
    const now = this.clock()
    this.store.withTransaction((tx) => tx.coreState.savePollerStatus(connectionId, status, now)).catch((error: unknown) => {
      console.error(`eventwatch: recording the poll status of ${connectionId} failed`, error)
    })
  }


  /** Pushes the status (every face shows it as it comes). */
  publishStatus(status = this.status()): void {
    this.verdictsPushed = verdictsOf(status)
    this.hub.emit('statusChanged', status)
  }

  /** Between polls: pushed only when a verdict changed (a connection went stale). */
  private publishStatusIfChanged(): void {
    const status = this.status()
    if (verdictsOf(status) !== this.verdictsPushed) this.publishStatus(status)
  }

  /** What the verdicts are decided from: each connection polled, and each saved one switched off. */
  private connectionFacts(): ConnectionFacts[] {
    const polled: ConnectionFacts[] = this.running.map(({ source, poller }) => ({
      connectionId: source.target.id,
      connectionName: source.target.name,
      demo: source.isDemo,
      disabled: false,
      paused: poller.isPaused,
      ...poller.currentStatus
    }))
    const disabled: ConnectionFacts[] = this.switchedOff
      .filter((c) => !polled.some((p) => p.connectionId === c.id))
      .map((c) => ({ connectionId: c.id, connectionName: c.name, demo: false, disabled: true, paused: false, state: 'stopped', lastUpdateAt: null, lastError: null, offlineSince: null }))
    return [...polled, ...disabled]
  }

  status(): Status {
    const statuses = this.running.map((r) => r.poller.currentStatus)
    const demo = this.running.length > 0 && this.running.every((r) => r.source.isDemo)
    const offline = statuses.map((s) => s.offlineSince).filter((t): t is number => t !== null)
    const pollIntervalSeconds = (this.cadences.detailMs ?? 15_000) / 1000
    const connections = decideConnectionStatuses(this.connectionFacts(), { now: this.clock(), pollIntervalSeconds })
    return {
      mode: demo ? 'demo' : 'connected',
      connectionName: this.running.map((r) => r.source.target.name).join(', ') || 'No connection',
      connections,
      summary: decidePollSummary(connections),
      problem: null,
      pollState: worstState(statuses),
      lastUpdateAt: oldestUpdate(statuses),
      lastGoodAt: this.lastGoodAt(),
      lastError: statuses.find((s) => s.lastError)?.lastError ?? null,
      offlineSince: offline.length ? new Date(Math.min(...offline)).toISOString() : null,
      paused: this.pollingPaused(),
      pollIntervalSeconds
    }
  }
}

const verdictsOf = (status: Status): string =>
  JSON.stringify([status.summary, status.connections.map((c) => [c.connectionId, c.state, c.current])])

const STATE_ORDER: PollerStatus['state'][] = ['offline', 'error', 'starting', 'polling', 'paused', 'stopped', 'ok']

function worstState(statuses: PollerStatus[]): PollerStatus['state'] {
  for (const state of STATE_ORDER) if (statuses.some((s) => s.state === state)) return state
  return 'stopped'
}

function oldestUpdate(statuses: PollerStatus[]): string | null {
  if (statuses.length === 0 || statuses.some((s) => s.lastUpdateAt === null)) return null
  return new Date(Math.min(...statuses.map((s) => s.lastUpdateAt as number))).toISOString()
}
