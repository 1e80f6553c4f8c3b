// The core's one voice: after every unit of work of a poller, and after every operator action,
// it judges the alerts, decides the situation and pushes what changed — the alerts with the
// situation, then the live rows with their health and alert. Every face follows these pushes.
// After a unit of work it judges only the sessions the unit touched (sync/touched.ts): their
// alerts and their rows; the others have not changed. A connection's first judgement, the clock
// finding something due and an operator's change judge every session. The alerts go through the
// Store (docs/store.md): one judgement of a connection at a time, and one alerts push at a time,
// in the order of their revisions; each push's revision is taken with what it announces as rows
// (alert_changes), for a core that did not hear it, and notified (ew_alerts). Once it follows
// other cores (fanout/server-relay.ts), their pushes go through the same queue, caught up before
// each of its own, so its faces hear every revision once and in order.
import { randomUUID } from 'node:crypto'
import type { AlertSituation } from '../../../shared/alerts'
import { AlertEvaluator, type Evaluation } from '../alerts/evaluator'
import { announce, announcementOf, changeIdsOf, readSituation, type Announcement } from '../alerts/page'
import { AlertChanges, type AlertOutbox } from '../alerts/alert-changes'
import type { UnconfirmedConnection } from '../alerts/situation'
import { nothingApplied, type Applied } from '../alerts/apply'
import type { CoreStateStore } from '../store/interface/core-state'
import type { Fence } from '../store/interface/leases'
import type { Store, Tx } from '../store/interface/store'
import type { AlertCatchUp, RelayedPush } from '../fanout/alert-catch-up'
import type { EventHub } from './event-hub'
import { LiveBoard, type TouchedRows } from './live-board'
import { loadVerdicts } from './verdicts'
import { CriticalRepeats, type RepeatSteps } from '../alerts/repeat'
import type { Revised } from '../../../shared/revisions'
import { TouchedSessions } from '../sync/touched'

export interface MonitorDeps {
  clock: () => number
  /** The connections being polled now. */
  polled(): readonly string[]
  /** Polled connections without a successful poll yet, or offline. */
  unconfirmed(): readonly UnconfirmedConnection[]
  pollingPaused(): boolean
  /** Where alert changes queue their webhook events, in their own transaction (none: no webhooks). */
  outbox?: AlertOutbox
  /** A push left for every face `seconds` after the commit it announces (the push lag, GET /metrics). */
  pushed?: (event: 'alertsChanged' | 'sessionsChanged', seconds: number) => void
  /** Where servers share connections by lease (PostgreSQL): this server's lease of a connection,
   *  which fences the judgement of its polls; null when it holds none (its new holder judges).
   *  Absent: this core judges every connection it polls, unfenced. */
  leaseOf?(connectionId: string): Fence | null
  /** The lease of the critical repeats (a job of the team): null while another server runs them. */
  repeatsLease?(): Fence | null
  /** The board counts its revisions alone, in this core's epoch (several servers on one
   *  database: LiveBoardDeps.countsAlone); by default on the `board` row the data shares. */
  boardCountsAlone?: boolean
}

export class Monitor {
  /** Every alert change commits through here, with its outbox rows (and an operator's audit row). */
  readonly changes: AlertChanges
  readonly evaluator: AlertEvaluator
  readonly board: LiveBoard
  /** The count the board's and the situation's revisions are of (rows: store/revisions.ts): a
   *  new one at every start, so a client takes a restarted core's first words whole. Another core
   *  started on the same file begins its own, and this one's pushes follow it. */
  readonly epoch = randomUUID()
  /** The unconfirmed connections as last pushed: a change of them changes the situation. */
  private unconfirmedPushed = '[]'
  /** How many connections were polled as last pushed: the situation says it (session names). */
  private polledPushed = -1
  /** The situation as last pushed, less its revision and time: the clock pushes it when time
   *  alone changed it (a maintenance window or a notification pause began or ended). */
  private situationPushed = ''
  /** Per connection, the sessions a unit touched whose judgement did not complete (its change
   *  rolled back): judged with the next unit's. A connection not here was never judged in full. */
  private readonly owed = new Map<string, TouchedSessions>()
  /** Per connection, its judgement under way: the next waits for it (no two at once). */
  private readonly judging = new Map<string, Promise<void>>()
  /** The alerts push under way: the next waits for it, so pushes go out in revision order. */
  private pushing: Promise<unknown> = Promise.resolve()
  /** Other cores' alerts pushes, once this core follows them (fanout/): caught up in turn. */
  private others: AlertCatchUp | null = null

  /** A monitor that has begun its epoch of the alerts and of the board (one unit), so that its
   *  first push already counts in it. */
  static async begin(store: Store, hub: EventHub, deps: MonitorDeps): Promise<Monitor> {
    const monitor = new Monitor(store, hub, deps)
    await store.withTransaction(async (tx) => {
      await tx.coreState.beginEpoch('alerts', monitor.epoch)
      // A new board too: the faces' copies are diffs of another one's pushes.
      await tx.coreState.beginEpoch('board', monitor.epoch)
    })
    return monitor
  }

  private constructor(
    /** The alerts' and the live board's reads and units of work. */
    readonly store: Store,
    private readonly hub: EventHub,
    private readonly deps: MonitorDeps
  ) {
    this.changes = new AlertChanges(store, deps.outbox, () => deps.polled().length)
    // The verdicts of each evaluation, read through the Store before its unit (app/verdicts.ts).
    this.evaluator = new AlertEvaluator(store, () => loadVerdicts(store.read), deps.clock, this.changes)
    this.board = new LiveBoard(store, {
      epoch: this.epoch,
      countsAlone: deps.boardCountsAlone,
      polled: deps.polled,
      emit: (payload, committedAt) => {
        hub.emit('sessionsChanged', payload)
        this.pushedSince('sessionsChanged', committedAt)
      },
      clock: deps.clock
    })
  }

  /** The situation now, stamped with the alerts' revision as last pushed unless `stamp` is given. */
  async situation(stamp?: Revised | null): Promise<AlertSituation> {
    if (stamp === undefined) stamp = await this.store.read.coreState.revision('alerts')
    return readSituation(
      this.store.read,
      {
        revision: stamp?.revision ?? 0,
        epoch: stamp?.epoch ?? this.epoch,
        cooling: () => this.evaluator.cooling(),
        unconfirmed: this.deps.unconfirmed,
        pollingPaused: this.deps.pollingPaused,
        connectionsPolled: () => this.deps.polled().length
      },
      this.deps.clock()
    )
  }

  /** After a unit of work of one connection: the alerts of the sessions it touched (all of them
   *  by default), then their rows, once the judgement of that connection under way has finished.
   *  Rejects only with what the alerts could not store; the rows are pushed either way, and what
   *  was not judged is judged with the next unit. */
  afterWork(connectionId: string, lastSuccessAt: number | null, touched = TouchedSessions.everySession()): Promise<void> {
    const judged = (this.judging.get(connectionId) ?? Promise.resolve()).then(() => this.judge(connectionId, lastSuccessAt, touched))
    const tracked = judged.catch(() => undefined)
    this.judging.set(connectionId, tracked)
    void tracked.then(() => {
      if (this.judging.get(connectionId) === tracked) this.judging.delete(connectionId)
    })
    return judged
  }

  /** Every judgement (of one connection, or of all) and alerts push under way has finished. */
  async judged(connectionId?: string): Promise<void> {
    if (connectionId !== undefined) await this.judging.get(connectionId)
    else while (this.judging.size > 0) await Promise.all(this.judging.values())
    await this.pushing.catch(() => undefined)
    await this.board.pushed()
  }

  private async judge(connectionId: string, lastSuccessAt: number | null, touched: TouchedSessions): Promise<void> {
    const fence = this.deps.leaseOf ? this.deps.leaseOf(connectionId) : undefined
    // Given up meanwhile: what it polled is judged by the server that holds it now.
    if (fence === null) return
    const owed = this.owed.get(connectionId)
    const scope = owed ? owed.with(touched) : TouchedSessions.everySession()
    this.owed.set(connectionId, scope)
    try {
      await this.settle(await this.evaluator.evaluate(connectionId, lastSuccessAt, scope, fence))
    } finally {
      await this.board.publish({ connectionId, touched: scope })
    }
    // Reached only when both went through.
    this.owed.set(connectionId, new TouchedSessions())
  }

  /** The connections polled changed: what the others left open ends, their rows leave Live. */
  async pollersChanged(): Promise<void> {
    // A connection polled again later is judged in full first.
    for (const connectionId of [...this.owed.keys()]) if (!this.deps.polled().includes(connectionId)) this.owed.delete(connectionId)
    try {
      const evaluation = await this.evaluator.forgetUnwatched(this.deps.polled())
      // A connection more or fewer changes how sessions are named away from their connection.
      if (evaluation.any || this.deps.polled().length !== this.polledPushed) await this.publishAlerts(evaluation, evaluation.announcement)
    } finally {
      await this.board.publish()
    }
  }

  /** Between polls (the 10 s clock): whether time alone changed this connection's alerts (a
   *  blind alert due, a snooze run out), so that it is judged again with afterWork. Reads its
   *  open alerts, nothing of its sessions. */
  dueByClock(connectionId: string, lastSuccessAt: number | null): Promise<boolean> {
    return this.evaluator.dueByClock(connectionId, lastSuccessAt)
  }

  /** Between polls: pushes the situation if time alone changed it, nothing otherwise. */
  async situationByClock(): Promise<void> {
    if (withoutRevision(await this.situation()) !== this.situationPushed) await this.publishAlerts(nothingApplied())
  }

  /** Announces again the criticals nobody acknowledged, when their period has come round
   *  (called on the pollers' clock tick). */
  repeatTick(): Promise<void> {
    return this.inTurn(async () => {
      // One server of a team runs them, each unit fenced with the job's lease.
      const fence = this.deps.repeatsLease ? this.deps.repeatsLease() : undefined
      if (fence === null) return
      const unit = fence ? { fence } : {}
      const rule = (await this.store.read.settings.get('alertRules')).repeatCritical
      if (!rule.enabled) {
        // Read first: a tick with nothing to forget takes no write lock.
        if ((await this.store.read.coreState.repeatSteps()).size > 0) {
          await this.store.withTransaction((tx) => new CriticalRepeats(stepsOf(tx.coreState)).clear(), unit)
        }
        return
      }
      // The steps announced, the revision of their push and what it says commit together: no repeat twice.
      const due = await this.store.withTransaction(async (tx) => {
        const now = this.deps.clock()
        const ids = await new CriticalRepeats(stepsOf(tx.coreState)).due(await tx.alerts.firingCriticals(), rule.everyMinutes * 60_000, now)
        if (ids.length === 0) return null
        const said = await announce(tx, { changed: [], removed: [], fired: [], resolved: [], repeated: await tx.alerts.many(ids) }, now)
        return { said, stamp: await stampPush(tx, said, now) }
      }, unit)
      if (due) await this.emitAlerts(due.said, due.stamp, performance.now())
    })
  }

  /**
   * From now on this core's faces hear the alerts pushes of the other cores on the database too
   * (fanout/server-relay.ts), each revision once and in order; they start after the revision
   * now (what came before, the faces read whole).
   */
  followOthers(catchUp: AlertCatchUp): Promise<void> {
    return this.inTurn(async () => {
      await catchUp.begin()
      this.others = catchUp
    })
  }

  /** Other cores took alerts revisions (up to `revision`, when a notification says which): their
   *  pushes follow, in turn. Nothing when this core follows none, or has pushed that one already. */
  heardOthers(revision?: number): Promise<void> {
    const heardAt = performance.now()
    return this.inTurn(async () => {
      const others = this.others
      if (!others || (revision !== undefined && !others.isNews(revision))) return
      await others.catchUp((relayed) => this.relay(relayed, heardAt))
    })
  }

  /** The push has left (the hub hands it to every face at once): how long since its unit committed. */
  private pushedSince(event: 'alertsChanged' | 'sessionsChanged', committedAt: number): void {
    this.deps.pushed?.(event, (performance.now() - committedAt) / 1000)
  }

  /** Pushes the alerts that changed (possibly none: a pause changes only the situation), as
   *  `announcement` says when the change was committed through `changes`. */
  publishAlerts(change: Applied, announcement?: Announcement): Promise<AlertSituation> {
    // What this push says of them, noted before it waits its turn: a status change meanwhile pushes nothing more.
    this.unconfirmedPushed = JSON.stringify(this.deps.unconfirmed())
    this.polledPushed = this.deps.polled().length
    return this.inTurn(async () => {
      const said = announcement ?? (await announcementOf(this.store.read, change, this.deps.clock()))
      const stamp = await this.store.withTransaction((tx) => stampPush(tx, said, this.deps.clock()))
      return this.emitAlerts(said, stamp, performance.now())
    })
  }

  /** This core's own alerts push, stamped `stamp`; what other cores pushed before it goes first. */
  private async emitAlerts(said: Announcement, stamp: Revised, committedAt: number): Promise<AlertSituation> {
    // A push that throws leaves this one unpushed too: the next catch-up pushes both, in order.
    await this.others?.catchUp((relayed) => this.relay(relayed, committedAt), stamp.revision - 1)
    const situation = await this.pushedSituation(stamp)
    this.hub.emit('alertsChanged', { ...said, situation })
    this.others?.pushedHere(stamp.revision)
    this.pushedSince('alertsChanged', committedAt)
    return situation
  }

  /** Another core's push, as this core's faces hear it: with the situation now (the lag counted
   *  from when this core heard of it). */
  private async relay({ said, stamp }: RelayedPush, heardAt: number): Promise<void> {
    const situation = await this.pushedSituation(stamp)
    this.hub.emit('alertsChanged', { ...said, situation })
    this.pushedSince('alertsChanged', heardAt)
  }

  /** Pushes the rows that changed: every row, or those of the sessions a unit touched. */
  publishBoard(only?: TouchedRows): Promise<void> {
    return this.board.publish(only)
  }

  /** A poller's status changed: the situation follows when a connection became (un)confirmed. */
  async statusChanged(): Promise<void> {
    const unconfirmed = JSON.stringify(this.deps.unconfirmed())
    if (unconfirmed !== this.unconfirmedPushed) await this.publishAlerts(nothingApplied())
  }

  private async settle(evaluation: Evaluation): Promise<void> {
    if (evaluation.any) await this.publishAlerts(evaluation, evaluation.announcement)
  }

  /** An alerts push, after the one under way: each takes its revision and is emitted in turn. */
  private inTurn<T>(push: () => Promise<T>): Promise<T> {
    const pushed = this.pushing.catch(() => undefined).then(push)
    this.pushing = pushed
    return pushed
  }

  /** The situation about to be pushed, remembered for the clock. */
  private async pushedSituation(stamp: Revised): Promise<AlertSituation> {
    const situation = await this.situation(stamp)
    this.situationPushed = withoutRevision(situation)
    return situation
  }
}

/** The revision of an alerts push, with the alerts it names as rows (alert_changes), in the unit
 *  that takes it: a reader of the rows (another core, a server after a NOTIFY) misses none. Every
 *  server hears the revision once the unit commits (ew_alerts), and reads the rows. */
async function stampPush(tx: Tx, said: Announcement, at: number): Promise<Revised> {
  const stamp = await tx.coreState.nextRevision('alerts')
  await tx.coreState.recordAlertChanges(stamp, changeIdsOf(said), at)
  await tx.notifications.send('ew_alerts', String(stamp.revision))
  return stamp
}

/** Each critical's step on its repeat grid, as rows of the unit of work they are read and written in. */
const stepsOf = (rows: CoreStateStore): RepeatSteps => ({
  read: () => rows.repeatSteps(),
  write: (next) => rows.saveRepeatSteps(next)
})

/** A situation to compare with another: its revision and time always differ. */
const withoutRevision = (situation: AlertSituation): string => JSON.stringify({ ...situation, revision: 0, at: '' })
