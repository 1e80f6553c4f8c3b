// The core's own state as rows (issue 25, docs/scaling-plan.md step 4): what the core decided
// that used to live only in its memory, so that a restarted core — or another server on the same
// database — sees it too. The revisions the faces weigh pushes by (and their epoch), the pause of
// polling, the conditions a cooldown holds back, what the rules judged of each session, and where
// each critical stands on its repeat grid.
import type { Revised } from '../../../../shared/revisions'
import type { AlertChangeIds, AlertChangeKind, AlertChangeRow } from '../alert-change-log'
import type { CoolingCondition } from '../alert-cooling'
import type { Judged, JudgedMark } from '../alert-judged'
import type { PausedPolling, StoredPollerStatus } from '../poller-status'
import type { RevisionName } from '../revisions'

export type { AlertChangeIds, AlertChangeKind, AlertChangeRow, CoolingCondition, Judged, JudgedMark, PausedPolling, RevisionName, StoredPollerStatus }

export interface CoreStateReads {
  /** The revision of `name` now, in its epoch; null before any epoch was begun. */
  revision(name: RevisionName): Promise<Revised | null>
  /** Polling paused: every connection (and those started later), or these alone. */
  pausedPolling(): Promise<PausedPolling>
  /** Each connection's poller status as its poller last said it, by connection id. */
  pollerStatuses(): Promise<Map<string, StoredPollerStatus>>
  /** Every condition a cooldown holds back now, across connections. */
  cooling(): Promise<CoolingCondition[]>
  /** Per session of the connection: the newest snapshot and viewer list the rules judged. */
  judged(connectionId: string): Promise<Map<string, Judged>>
  /** Per alert id: the repeat step last announced. */
  repeatSteps(): Promise<Map<number, number>>
  /** What the alerts pushes after `revision` announced, in revision order and whole pushes: at
   *  most `limit` rows (one push larger than that comes alone). Each row says its epoch. */
  alertChangesSince(revision: number, limit: number): Promise<AlertChangeRow[]>
}

export interface CoreStateStore extends CoreStateReads {
  /** A new epoch for `name`; the revision goes on from where it was (never handed out twice). */
  beginEpoch(name: RevisionName, epoch: string): Promise<Revised>
  /** The next revision of `name` in its current epoch; every store on the data counts on the same one. */
  nextRevision(name: RevisionName): Promise<Revised>
  /** Pauses or resumes one connection, or every one when none is named (resuming all resumes each). */
  setPollingPaused(paused: boolean, now: number, connectionId?: string): Promise<void>
  /** Records a poller's status as it changes; its pause flag stays as it is. */
  savePollerStatus(connectionId: string, status: Omit<StoredPollerStatus, 'updatedAt'>, now: number): Promise<void>
  /** Replaces what a connection's cooldowns hold back. */
  replaceCooling(connectionId: string, held: readonly CoolingCondition[]): Promise<void>
  /** Forgets the cooldowns of every connection not in `polled`; how many were held. */
  forgetCoolingExcept(polled: readonly string[]): Promise<number>
  /** Records what an evaluation judged; sessions it no longer observes are forgotten. */
  saveJudged(connectionId: string, observed: readonly string[], marks: readonly JudgedMark[]): Promise<void>
  /** The repeat steps become `next`: the alerts it names get their step, the others none. */
  saveRepeatSteps(next: ReadonlyMap<number, number>): Promise<void>
  /** Records what the push stamped `stamp` announces: in the unit that took its revision. */
  recordAlertChanges(stamp: Revised, changes: AlertChangeIds, at: number): Promise<void>
  /** Forgets changes recorded before `before`, at most `limit`; how many went. */
  pruneAlertChanges(before: number, limit: number): Promise<number>
}
