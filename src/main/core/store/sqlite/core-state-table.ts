// The core's state rows of a Tx on one SQLite connection: the synchronous store functions,
// each answered as a promise.
import { alertChangesSince, pruneAlertChanges, recordAlertChanges } from '../alert-change-log'
import { coolingConditions, forgetCoolingExcept, replaceCooling } from '../alert-cooling'
import { judgedOf, saveJudged } from '../alert-judged'
import { repeatSteps, saveRepeatSteps } from '../alert-repeat-steps'
import type { Db } from '../db'
import type { CoreStateStore } from '../interface/core-state'
import { pausedPolling, pollerStatuses, savePollerStatus, setPollingPaused } from '../poller-status'
import { beginEpoch, currentRevision, nextRevision } from '../revisions'
import type { Runners } from './runners'

export function coreStateTable(db: Db, { read, write }: Runners): CoreStateStore {
  return {
    revision: (name) => read(() => currentRevision(db, name)),
    pausedPolling: () => read(() => pausedPolling(db)),
    pollerStatuses: () => read(() => pollerStatuses(db)),
    cooling: () => read(() => coolingConditions(db)),
    judged: (c) => read(() => judgedOf(db, c)),
    repeatSteps: () => read(() => repeatSteps(db)),
    alertChangesSince: (revision, limit) => read(() => alertChangesSince(db, revision, limit)),
    beginEpoch: (name, epoch) => write(() => beginEpoch(db, name, epoch)),
    nextRevision: (name) => write(() => nextRevision(db, name)),
    setPollingPaused: (paused, now, c) => write(() => setPollingPaused(db, paused, now, c)),
    savePollerStatus: (c, status, now) => write(() => savePollerStatus(db, c, status, now)),
    replaceCooling: (c, held) => write(() => replaceCooling(db, c, held)),
    forgetCoolingExcept: (polled) => write(() => forgetCoolingExcept(db, polled)),
    saveJudged: (c, observed, marks) => write(() => saveJudged(db, c, observed, marks)),
    saveRepeatSteps: (next) => write(() => saveRepeatSteps(db, next)),
    recordAlertChanges: (stamp, changes, at) => write(() => recordAlertChanges(db, stamp, changes, at)),
    pruneAlertChanges: (before, limit) => write(() => pruneAlertChanges(db, before, limit))
  }
}
