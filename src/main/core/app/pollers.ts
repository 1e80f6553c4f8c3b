// One poller per data source, and the app's status from theirs: each connection's own verdict
// (core/sync/connection-status.ts) and the app's summed from them, pushed whenever one changes.
import type { Status } from '../../../shared/domain'
import { nothingApplied } from '../alerts/apply'
import type { UnconfirmedConnection } from '../alerts/situation'
import type { AlertOutbox } from '../alerts/alert-changes'
import type { Store } from '../store/interface/store'
import type { ConnectionRecord } from '../store/interface/connections'
import { LeaseLostError, type Lease } from '../store/interface/leases'
import { fencedStore } from '../store/fenced-store'
import { isPollingPaused, type PausedPolling } from '../store/poller-status'
import type { ViewerListStore } from '../store/viewer-store'
import type { ConnectionFacts } from '../sync/connection-status'
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
import type { ConnectionLeases, HeldConnections } from './connection-leases'
import { TeamStatus } from './team-status'
import type { PollRequest } from '../store/interface/poll-requests'
import type { PollAsker } from './poll-request-asker'
import type { PollRunner } from './poll-request-answerer'
import { POLL_REQUEST_KINDS, type PollAnswer, type PollArguments } from './poll-request-kinds'
import type { PollRequestKind } from '../store/interface/poll-requests'
import { allPaused, groupStatus, STOPPED, unconfirmedOf, verdictsOf } from './group-status'

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
  /** Where servers share the connections by lease (PostgreSQL): a connection is polled here only
   *  while this server holds its lease, and every unit its poller writes is fenced with it; the
   *  others' status is read from their holders' rows. Absent: every source is polled here. */
  leases?: ConnectionLeases
  /** Without `leases`: the lease each connection's units are fenced with all the same (a one-shot
   *  pass on a team's database, pass-leases.ts). */
  fenceOf?: (connectionId: string) => Lease | null
  /** Where servers share the connections: the saved connections changed under this server (another
   *  server's change), or it holds a connection it has no source for: its sources are chosen again. */
  sourcesStale?: () => void
  /** The board counts its revisions alone (several servers on one database: MonitorDeps.boardCountsAlone). */
  boardCountsAlone?: boolean
  /** Where servers share the connections: how a request that needs a poller another server runs
   *  reaches it (poll_requests). Absent: such a request is refused here, in words. */
  asker?: PollAsker
  /** A leased connection's poller started here: what was asked of it meanwhile is picked up. */
  pollerStarted?: (connectionId: string) => void
}

/** Who asked, and until when they wait (a request of the app API). */
export interface Asked {
  actor?: string | null
  signal?: AbortSignal
}

/** What one connection's complete pass fetched. */
export interface CompletedPass {
  connection: ConnectionTarget
  report: SyncReport
}

/** A poller this core runs, with its source. */
interface Running {
  source: DataSource
  poller: Poller
}

export class PollerGroup implements HeldConnections, PollRunner {
  /** Every source polled: here, or by the team's servers between them (each by its lease's holder). */
  private team: DataSource[] = []
  /** The pollers this core runs: every source, or (leased) those whose lease it holds. */
  private running: Running[] = []
  /** Whether start() has run since the last stop(): leases taken meanwhile wait for it. */
  private started = false
  private stopBlindClock: (() => void) | undefined
  /** The team's rows read again on the leases' renewal period (leased only). */
  private stopTeamClock: (() => void) | undefined
  /** The rows of the connections polled elsewhere (leased only). */
  private readonly teamStatus: TeamStatus | undefined
  /** The saved connections as they were when the sources were chosen (leased only). */
  private savedSeen = ''
  private staleSaid = false
  /** The operators' pauses as the rows said them last (a start, or the team's clock). */
  private paused: PausedPolling = { all: false, connections: new Set() }
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
    const leases = options.leases
    const monitor = await Monitor.begin(store, hub, {
      clock: options.clock ?? Date.now,
      polled: () => made.group?.team.map((s) => s.target.id) ?? [],
      unconfirmed: () => made.group?.unconfirmed() ?? [],
      pollingPaused: () => made.group?.pollingPaused() ?? false,
      ...(options.outbox ? { outbox: options.outbox } : {}),
      ...(options.metrics ? { pushed: (event, seconds) => options.metrics!.pushed(event, seconds) } : {}),
      ...(leases ? { leaseOf: (id: string) => leases.leaseOf(id), repeatsLease: () => leases.jobLease('repeats') } : {}),
      ...(!leases && options.fenceOf ? { leaseOf: options.fenceOf } : {}),
      ...(options.boardCountsAlone ? { boardCountsAlone: true } : {})
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
    if (options.leases && store.leases) this.teamStatus = new TeamStatus(store.read, store.leases)
  }

  /** Takes effect for pollers started from now on (the app restarts them). */
  setCadences(cadences: Partial<Cadences>): void {
    this.cadences = cadences
  }

  /** Every source polled, here or (leased) by another server of the team. */
  get sources(): DataSource[] {
    return [...this.team]
  }

  /** Starts a poller per source (leased: per source whose lease this server holds); resolves once
   *  what the connections polled changing ended (alerts left open by the others) is stored and pushed. */
  async start(sources: DataSource[]): Promise<void> {
    // An operator's pause is a row (store/poller-status.ts): it holds across a restart.
    this.paused = await this.store.read.coreState.pausedPolling()
    // What the status says beside the pollers' own: the cache's newest poll of each (this run's
    // come from the pollers), and the saved connections switched off (a change restarts polling).
    const newest = await Promise.all(sources.map(async (s) => [s.target.id, await this.store.read.sessions.newestPollAt(s.target.id)] as const))
    this.cachedPolls = new Map(newest.flatMap(([id, at]) => (at === null ? [] : [[id, at] as const])))
    const saved = await this.store.read.connections.list()
    this.switchedOff = saved.filter((c) => !c.enabled)
    this.savedSeen = savedFingerprint(saved)
    this.staleSaid = false
    const leases = this.options.leases
    if (leases) await this.refreshTeam().catch(() => undefined)
    // From here on, in one turn: a lease taken meanwhile has waited (hold), and is polled now.
    this.team = sources
    this.started = true
    this.running = sources.filter((s) => !leases || leases.leaseOf(s.target.id) !== null).map((source) => this.startPoller(source))
    // Best effort: the next start tries again.
    this.changing = this.monitor.pollersChanged().catch(() => undefined)
    // Between polls too (back-off can be minutes): only what time alone changes is judged — a
    // connection whose blind alert or snooze is due in full (paused ones skipped), the situation
    // if a window or a pause began or ended, staleness, repeats. A quiet tick reads no session.
    this.stopBlindClock?.()
    this.stopBlindClock = startBlindClock(this.options.timers ?? realTimers, () => {
      if (this.ticking) return
      this.ticking = this.clockTick().finally(() => (this.ticking = null))
    })
    // The team's rows (statuses, pauses, leases, the saved connections) as often as the leases
    // are renewed: a connection whose holder died reads as such within one period of its lease.
    this.stopTeamClock?.()
    this.stopTeamClock = leases
      ? startBlindClock(this.options.timers ?? realTimers, () => void this.teamTick(), leases.renewEveryMs)
      : undefined
    return this.changing
  }

  /** The lease of a source is this server's now (its takeover cleaned up): its poller starts. */
  hold(connectionId: string): void {
    // Not started (or between a stop and a start): start() runs the pollers of the leases held.
    if (!this.started || this.pollerOf(connectionId)) return
    const source = this.team.find((s) => s.target.id === connectionId)
    if (!source) {
      // Saved on another server since this one chose its sources.
      this.options.sourcesStale?.()
      return
    }
    this.running = [...this.running, this.startPoller(source)]
    this.publishStatus()
  }

  /** The lease of a source is no longer this server's: its poller stops, at once (`signal` null:
   *  lost) or at its pass boundary (given up; `signal` cuts it short). */
  async letGo(connectionId: string, signal: AbortSignal | null): Promise<void> {
    const running = this.running.find((r) => r.source.target.id === connectionId)
    if (!running) return
    this.running = this.running.filter((r) => r !== running)
    if (signal === null) await running.poller.stop()
    else await running.poller.stopAtBoundary(signal)
    // Its last unit's judgement, fenced with the lease it ran under, before the lease goes.
    await this.monitor.judged(connectionId)
    this.publishStatus()
  }

  /** A poller for `source`, started unless passes come only when asked; paused as the rows say. */
  private startPoller(source: DataSource): Running {
    const connectionId = source.target.id
    const lease = this.options.leases?.leaseOf(connectionId) ?? this.options.fenceOf?.(connectionId) ?? null
    // Leased: every unit it writes is fenced with the lease it was started under, never a later one.
    const writes = lease
      ? fencedStore(this.store, () => lease, () => new Error(`this server holds no lease of connection ${connectionId}`))
      : this.store
    const poller: Poller = new Poller(writes, source.client, {
      connectionId,
      cadences: this.cadences,
      lookbackDays: source.lookbackDays,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
      viewerStore: this.options.viewerStore,
      passDeadlineMs: this.options.passDeadlineMs,
      // Leased: it goes on from the lists the connection's last holder fetched (or this server, before).
      resumeViewerLists: this.options.leases !== undefined,
      onPolled: (report) => this.options.onPolled?.(source.target, report),
      onStatus: (status) => {
        this.recordStatus(writes, connectionId, status)
        this.publishStatus()
        this.monitor.statusChanged().catch((error: unknown) => console.error('eventwatch: pushing the situation failed', error))
      },
      onWork: (_kind, touched) => void this.afterWork(source, poller, touched),
      onUnitEnded: (kind, failed) => this.options.metrics?.pollEnded(source.target, kind, failed),
      onConnectivity: (change) =>
        this.hub.emit('connectivityChanged', {
          connectionId,
          connectionName: source.target.name,
          online: change.online,
          at: new Date(change.at).toISOString(),
          reason: change.reason
        })
    })
    if (isPollingPaused(this.paused, connectionId)) poller.pause()
    if (!this.options.passesOnRequest) poller.start()
    if (lease) queueMicrotask(() => this.options.pollerStarted?.(connectionId))
    return { source, poller }
  }

  /**
   * After a unit of work (a pass, a round of details, a refresh, a range): the alerts, then the
   * rows, of the sessions it touched. On the clock's tick, every session of a connection, only
   * when time alone changed its alerts (Monitor.dueByClock). The Monitor judges one connection's
   * units in turn: the judgement of one has finished before the next one's begins.
   */
  private async afterWork(source: DataSource, poller: Poller, touched: TouchedSessions | 'if due by the clock'): Promise<void> {
    const connectionId = source.target.id
    const lastSuccessAt = poller.currentStatus.lastUpdateAt
    try {
      if (touched !== 'if due by the clock') await this.monitor.afterWork(connectionId, lastSuccessAt, touched)
      else if (await this.monitor.dueByClock(connectionId, lastSuccessAt)) await this.monitor.afterWork(connectionId, lastSuccessAt)
    } catch (error) {
      // Its lease was lost meanwhile: the new holder judges it, and the keeper has said why.
      if (error instanceof LeaseLostError) return
      // An alert that cannot be stored must not stop polling; the status says why.
      const problem = `alerts: ${error instanceof Error ? error.message : String(error)}`
      this.hub.emit('statusChanged', { ...this.status(), lastError: problem, problem })
    }
  }

  /**
   * The team's rows read again (leased): the status of the connections polled elsewhere, and
   * whether their holders still hold them; an operator's pause or resume made on another server,
   * applied to the pollers here; the saved connections changed elsewhere, the sources chosen again.
   */
  private async teamTick(): Promise<void> {
    try {
      await this.refreshTeam()
    } catch (error) {
      console.error('eventwatch: reading the team\'s poll status failed', error)
      return
    }
    for (const { source, poller } of this.running) {
      const paused = isPollingPaused(this.paused, source.target.id)
      if (paused && !poller.isPaused) poller.pause()
      else if (!paused && poller.isPaused) poller.resume()
    }
    this.publishStatusIfChanged()
    await this.monitor.statusChanged().catch((error: unknown) => console.error('eventwatch: pushing the situation failed', error))
  }

  private async refreshTeam(): Promise<void> {
    await this.teamStatus?.refresh()
    this.paused = await this.store.read.coreState.pausedPolling()
    if (this.options.sourcesStale && !this.staleSaid && savedFingerprint(await this.store.read.connections.list()) !== this.savedSeen) {
      // Said once: the start with the new sources notes them again.
      this.staleSaid = true
      this.options.sourcesStale()
    }
  }

  /** One tick of the 10 s clock, in order: the connections due, the status, the situation, repeats. */
  private async clockTick(): Promise<void> {
    await Promise.all(this.running.filter(({ poller }) => !poller.isPaused).map(({ source, poller }) => this.afterWork(source, poller, 'if due by the clock')))
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
  async reevaluate(connectionId: string, asked: Asked = {}): Promise<void> {
    const poller = this.pollerOf(connectionId)
    if (poller) return this.monitor.afterWork(connectionId, poller.currentStatus.lastUpdateAt)
    // Its holder judges it at once; its pushes reach this server's faces through the relay. The
    // change that asked is saved already: a holder that cannot is said, and judges at its next poll.
    if (this.polledElsewhere(connectionId)) {
      await this.askHolder('reevaluate', connectionId, null, asked).catch((error: unknown) => {
        console.error(`eventwatch: ${error instanceof Error ? error.message : String(error)}; it is judged at its next poll`)
      })
    }
    await this.monitor.publishBoard()
  }

  /** The poller of a polled connection, if it is polled. */
  pollerOf(connectionId: string): Poller | undefined {
    return this.running.find((r) => r.source.target.id === connectionId)?.poller
  }

  /** Polled connections not confirmed (the situation names them). */
  private unconfirmed(): UnconfirmedConnection[] {
    return unconfirmedOf(this.team.map((source) => this.factsOf(source)))
  }

  /** Whether every connection's polling is paused: the tray shows "paused". */
  pollingPaused(): boolean {
    return allPaused(this.team.map((source) => this.factsOf(source)))
  }

  /** Stops every poller (each finishes its unit of work) and releases the sources. Leases stay
   *  as they are: their keeper gives them up (ConnectionLeases.stop). */
  async stop(): Promise<void> {
    this.stopBlindClock?.()
    this.stopBlindClock = undefined
    this.stopTeamClock?.()
    this.stopTeamClock = undefined
    this.started = false
    const stopping = this.running
    // Every source is closed, also those a server of the team polls elsewhere (an embedded demo).
    const sources = this.team
    this.running = []
    this.team = []
    await Promise.all(stopping.map((r) => r.poller.stop()))
    await this.judged()
    await Promise.all(sources.map((source) => source.close()))
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

  /** A pass now of every connection polled: here, and (leased) each of the others by its holder,
   *  side by side. Resolves once each holder has been asked; their answers (each a pass begun) are
   *  awaited meanwhile, and one that does not come is said on stderr, as a failed pass here is not. */
  async refreshNow(asked: Asked = {}): Promise<void> {
    for (const { poller } of this.running) void poller.pollOnce().catch(() => undefined)
    const elsewhere = this.team.map((s) => s.target.id).filter((id) => this.polledElsewhere(id))
    await Promise.all(
      elsewhere.map(
        (id) =>
          new Promise<void>((onAsked) => {
            this.askHolder('refresh', id, null, { ...asked, onAsked }).catch((error: unknown) => {
              console.error(`eventwatch: ${error instanceof Error ? error.message : String(error)}`)
              onAsked()
            })
          })
      )
    )
  }

  /** Pauses or resumes one connection, or all of them (and any started later) when none is named;
   *  the pause is stored first, so a restarted core starts paused. */
  async setPaused(paused: boolean, connectionId?: string): Promise<void> {
    await this.store.withTransaction((tx) => tx.coreState.setPollingPaused(paused, this.clock(), connectionId))
    // As the rows say it now: what another server holds shows paused here at once (its holder
    // pauses it at its next read of the team's rows).
    this.paused = await this.store.read.coreState.pausedPolling()
    for (const { source, poller } of this.running) {
      if (connectionId !== undefined && source.target.id !== connectionId) continue
      if (paused) poller.pause()
      else poller.resume()
    }
    this.publishStatus()
    await this.monitor.publishAlerts(nothingApplied())
  }

  /** Answers once the refresh has been judged (its alerts and its row pushed). */
  async refreshSession(connectionId: string, eventSessionId: string, asked: Asked = {}): Promise<{ viewers: number }> {
    const poller = this.pollerOf(connectionId)
    if (!poller && this.polledElsewhere(connectionId)) return this.askHolder('refreshSession', connectionId, { eventSessionId }, asked)
    if (!poller) throw new Error(this.notPolledHere(connectionId, 'refresh a session', '; its next poll there brings the session up to date'))
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
  async fetchRange(source: DataSource, from: Date, to: Date, asked: Asked = {}): Promise<{ listed: number }> {
    const polled = this.pollerOf(source.target.id)
    if (!polled && this.polledElsewhere(source.target.id)) {
      return this.askHolder('fetchRange', source.target.id, { from: from.toISOString(), to: to.toISOString() }, asked)
    }
    if (polled) {
      try {
        return await polled.fetchRange(from, to)
      } finally {
        await this.monitor.judged(source.target.id)
      }
    }
    // Its writer is the server holding its lease: a second one here would write beside it, unfenced.
    if (this.teamStatus && this.team.some((s) => s.target.id === source.target.id)) {
      throw new Error(this.notPolledHere(source.target.id, 'fetch a range of sessions'))
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

  /** Why a request that needs a connection's poller cannot be answered here, in one sentence. */
  private notPolledHere(connectionId: string, what: string, after = ''): string {
    const name = this.team.find((s) => s.target.id === connectionId)?.target.name
    if (!this.teamStatus || name === undefined) return `connection ${connectionId} is not being polled`
    const holder = this.teamStatus.holderOf(connectionId)
    // A core that asks no other server (no poll requests: a test's, or one without notifications).
    const by =
      holder === null ? 'no server holds it now (one takes it over within a lease)' : `another server of the team polls it (${holder}), and this core asks no other server`
    return `this server cannot ${what} of ${name}: ${by}${after}`
  }

  /** Whether the connection is the team's and its poller runs on another server, which this one
   *  can ask (leased, with poll requests). */
  private polledElsewhere(connectionId: string): boolean {
    return this.options.asker !== undefined && this.teamStatus !== undefined && !this.pollerOf(connectionId) && this.team.some((s) => s.target.id === connectionId)
  }

  /** Asks the connection's holder to run `kind` with its poller, and waits for its answer. */
  private askHolder<K extends PollRequestKind>(kind: K, connectionId: string, args: PollArguments<K>, asked: Asked & { onAsked?: () => void }): Promise<PollAnswer<K>> {
    const name = this.team.find((s) => s.target.id === connectionId)?.target.name ?? connectionId
    return this.options.asker!.ask(kind, connectionId, args, {
      connectionName: name,
      holder: this.teamStatus?.holderOf(connectionId) ?? null,
      ...asked
    })
  }

  /** The connections whose pollers run here (PollRunner). */
  runningHere(): string[] {
    return this.running.map((r) => r.source.target.id)
  }

  /** Runs what another server asked of a connection polled here (PollRunner): its answer. */
  async run(request: PollRequest): Promise<unknown> {
    const connectionId = request.connectionId
    const poller = this.pollerOf(connectionId)
    if (!poller) throw new Error(`this server no longer polls connection ${connectionId}`)
    const kind = POLL_REQUEST_KINDS[request.kind]
    const parsed = kind.args.safeParse(request.arguments)
    if (!parsed.success) throw new Error(`the request's arguments are not those of ${request.kind} (${parsed.error.issues[0]?.message ?? 'not its shape'})`)
    switch (request.kind) {
      case 'refresh':
        void poller.pollOnce().catch(() => undefined)
        return { startedAt: new Date(this.clock()).toISOString() }
      case 'refreshSession': {
        const { eventSessionId } = parsed.data as PollArguments<'refreshSession'>
        const { viewers } = await this.refreshSession(connectionId, eventSessionId)
        return { viewers }
      }
      case 'fetchRange': {
        const { from, to } = parsed.data as PollArguments<'fetchRange'>
        const source = this.team.find((s) => s.target.id === connectionId)!
        const { listed } = await this.fetchRange(source, new Date(from), new Date(to))
        return { listed }
      }
      case 'reevaluate':
        await this.monitor.afterWork(connectionId, poller.currentStatus.lastUpdateAt)
        return {}
    }
  }

  /** The newest poll the cache remembers of the connections polled now: this run's (or, leased,
   *  their holders' rows), else what the cache held when they started. */
  private lastGoodAt(): string | null {
    const times = this.team
      .map((s) => Math.max(this.factsOf(s).lastUpdateAt ?? Number.NEGATIVE_INFINITY, this.cachedPolls.get(s.target.id) ?? Number.NEGATIVE_INFINITY))
      .filter((t) => t !== Number.NEGATIVE_INFINITY)
    return times.length ? new Date(Math.max(...times)).toISOString() : null
  }

  /** Keeps a poller's status as a row, for what does not run it (a unit of its own, in the order
   *  said; leased, fenced with the lease); a write that fails stops no polling. */
  private recordStatus(writes: Store, connectionId: string, status: PollerStatus): void {
    const now = this.clock()
    writes.withTransaction((tx) => tx.coreState.savePollerStatus(connectionId, status, now)).catch((error: unknown) => {
      // A lease lost: its holder's rows are its own now, and the keeper has said why.
      if (error instanceof LeaseLostError) return
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

  /** A source's facts: its poller's, when it runs here; else (leased) its holder's rows. */
  private factsOf(source: DataSource): ConnectionFacts {
    const named = { connectionId: source.target.id, connectionName: source.target.name, demo: source.isDemo }
    const poller = this.pollerOf(source.target.id)
    if (poller || !this.teamStatus) return { ...named, disabled: false, paused: poller?.isPaused ?? false, ...(poller?.currentStatus ?? STOPPED) }
    return this.teamStatus.facts(named, isPollingPaused(this.paused, source.target.id))
  }

  /** What the verdicts are decided from: each connection polled, and each saved one switched off. */
  private connectionFacts(): ConnectionFacts[] {
    const polled = this.team.map((source) => this.factsOf(source))
    const disabled: ConnectionFacts[] = this.switchedOff
      .filter((c) => !polled.some((p) => p.connectionId === c.id))
      .map((c) => ({ connectionId: c.id, connectionName: c.name, demo: false, disabled: true, paused: false, ...STOPPED }))
    return [...polled, ...disabled]
  }

  status(): Status {
    return groupStatus({
      connections: this.connectionFacts(),
      demo: this.team.length > 0 && this.team.every((s) => s.isDemo),
      lastGoodAt: this.lastGoodAt(),
      now: this.clock(),
      pollIntervalSeconds: (this.cadences.detailMs ?? 15_000) / 1000
    })
  }
}

/** The saved connections as the sources are chosen from them: a change means choosing again. */
const savedFingerprint = (saved: readonly ConnectionRecord[]): string => JSON.stringify([...saved].sort((a, b) => a.id.localeCompare(b.id)))
