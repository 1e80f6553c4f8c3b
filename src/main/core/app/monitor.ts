// The core's one voice: after every unit of work of a poller, and after every operator action,
// it judges the alerts, decides the situation and pushes what changed — the alerts with the
// situation, then the live rows with their health and alert. Every face follows these pushes.
// After a unit of work it judges only the sessions the unit touched (sync/touched.ts): their
// alerts and their rows; the others have not changed. A connection's first judgement, the clock
// finding something due and an operator's change judge every session.
import { randomUUID } from 'node:crypto'
import type { AlertSituation } from '../../../shared/alerts'
import { AlertEvaluator, type Evaluation } from '../alerts/evaluator'
import { announce, announcementOf, readSituation, type Announcement } from '../alerts/page'
import { AlertChanges, type AlertOutbox } from '../alerts/alert-changes'
import type { UnconfirmedConnection } from '../alerts/situation'
import { nothingApplied, type Applied } from '../alerts/apply'
import type { Db } from '../store/db'
import type { Store } from '../store/interface/store'
import type { EventHub } from './event-hub'
import { LiveBoard, type TouchedRows } from './live-board'
import { Verdicts } from './verdicts'
import { CriticalRepeats } from '../alerts/repeat'
import { firingCriticals, getAlerts } from '../store/alerts'
import { repeatSteps, saveRepeatSteps } from '../store/alert-repeat-steps'
import { beginEpoch, currentRevision, nextRevision } from '../store/revisions'
import { withTransaction } from '../store/unit-of-work'
import type { Revised } from '../../../shared/revisions'
import { getAlertRules } from '../store/settings'
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
  /** Where each critical stands on its repeat grid: the alerts' repeat_step column. */
  private readonly repeats: CriticalRepeats
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

  constructor(
    private readonly db: Db,
    /** What the live board reads, and where its revisions are counted. */
    readonly store: Store,
    private readonly hub: EventHub,
    private readonly deps: MonitorDeps
  ) {
    beginEpoch(db, 'alerts', this.epoch)
    // A new board too: the faces' copies are diffs of another one's pushes.
    beginEpoch(db, 'board', this.epoch)
    this.repeats = new CriticalRepeats({ read: () => repeatSteps(db), write: (next) => saveRepeatSteps(db, next) })
    this.changes = new AlertChanges(db, deps.outbox, () => deps.polled().length)
    this.evaluator = new AlertEvaluator(db, () => new Verdicts(db), deps.clock, this.changes)
    this.board = new LiveBoard(store, {
      epoch: this.epoch,
      polled: deps.polled,
      cooling: () => this.evaluator.cooling(),
      emit: (payload) => hub.emit('sessionsChanged', payload),
      clock: deps.clock
    })
  }

  situation(stamp: Revised | null = currentRevision(this.db, 'alerts')): AlertSituation {
    return readSituation(
      this.db,
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
   *  by default), then their rows. Rejects only with what the alerts could not store, or the rows
   *  could not be read; the rows are pushed either way, and what was not judged is judged with
   *  the next unit. */
  async afterWork(connectionId: string, lastSuccessAt: number | null, touched = TouchedSessions.everySession()): Promise<void> {
    const owed = this.owed.get(connectionId)
    const scope = owed ? owed.with(touched) : TouchedSessions.everySession()
    this.owed.set(connectionId, scope)
    try {
      this.settle(this.evaluator.evaluate(connectionId, lastSuccessAt, scope))
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
      const evaluation = this.evaluator.forgetUnwatched(this.deps.polled())
      // A connection more or fewer changes how sessions are named away from their connection.
      if (evaluation.any || this.deps.polled().length !== this.polledPushed) this.publishAlerts(evaluation, evaluation.announcement)
    } finally {
      await this.board.publish()
    }
  }

  /** Between polls (the 10 s clock): whether time alone changed this connection's alerts (a
   *  blind alert due, a snooze run out), so that it is judged again with afterWork. Reads its
   *  open alerts, nothing of its sessions. */
  dueByClock(connectionId: string, lastSuccessAt: number | null): boolean {
    return this.evaluator.dueByClock(connectionId, lastSuccessAt)
  }

  /** Between polls: pushes the situation if time alone changed it, nothing otherwise. */
  situationByClock(): void {
    if (withoutRevision(this.situation()) !== this.situationPushed) this.publishAlerts(nothingApplied())
  }

  /** Announces again the criticals nobody acknowledged, when their period has come round
   *  (called on the pollers' clock tick). */
  repeatTick(): void {
    const rule = getAlertRules(this.db).repeatCritical
    if (!rule.enabled) return this.repeats.clear()
    // The steps announced and the revision of their push commit together: no repeat twice.
    const due = withTransaction(this.db, () => {
      const ids = this.repeats.due(firingCriticals(this.db), rule.everyMinutes * 60_000, this.deps.clock())
      return ids.length === 0 ? null : { ids, stamp: nextRevision(this.db, 'alerts') }
    })
    if (!due) return
    const { ids } = due
    const situation = this.pushedSituation(due.stamp)
    const repeated = announce(this.db, { changed: [], removed: [], fired: [], resolved: [], repeated: getAlerts(this.db, ids) }, this.deps.clock())
    this.hub.emit('alertsChanged', { ...repeated, situation })
  }

  /** Pushes the alerts that changed (possibly none: a pause changes only the situation), as
   *  `announcement` says when the change was committed through `changes`. */
  publishAlerts(change: Applied, announcement?: Announcement): AlertSituation {
    const stamp = nextRevision(this.db, 'alerts')
    this.unconfirmedPushed = JSON.stringify(this.deps.unconfirmed())
    this.polledPushed = this.deps.polled().length
    const situation = this.pushedSituation(stamp)
    this.hub.emit('alertsChanged', { ...(announcement ?? announcementOf(this.db, change, this.deps.clock())), situation })
    return situation
  }

  /** Pushes the rows that changed: every row, or those of the sessions a unit touched. */
  publishBoard(only?: TouchedRows): Promise<void> {
    return this.board.publish(only)
  }

  /** A poller's status changed: the situation follows when a connection became (un)confirmed. */
  statusChanged(): void {
    const unconfirmed = JSON.stringify(this.deps.unconfirmed())
    if (unconfirmed !== this.unconfirmedPushed) this.publishAlerts(nothingApplied())
  }

  private settle(evaluation: Evaluation): void {
    if (evaluation.any) this.publishAlerts(evaluation, evaluation.announcement)
  }

  /** The situation about to be pushed, remembered for the clock. */
  private pushedSituation(stamp: Revised): AlertSituation {
    const situation = this.situation(stamp)
    this.situationPushed = withoutRevision(situation)
    return situation
  }
}

/** A situation to compare with another: its revision and time always differ. */
const withoutRevision = (situation: AlertSituation): string => JSON.stringify({ ...situation, revision: 0, at: '' })
