// Retention: forgets snapshots, viewer lists and (when asked) whole sessions older than the
// settings allow, one short unit of work of the Store per batch (the retention concern), so the
// writer and the UI never wait long, on either backend.
//
// - Snapshots: at most `batchSize` rows per transaction.
// - Viewer lists: a list is one unit both ways: stored whole (viewers.ts) and pruned whole, so
//   a list row always means a complete list, even after a crash mid-prune. Lists are grouped
//   into a transaction up to `batchSize` viewers; a list larger than that goes alone (costing
//   about what storing it did).
// - Sessions (sessionsDays; off by default): ended sessions that started before the cutoff.
//   Their snapshots and lists go first in the batches above, then the session rows.
// - Alert history (alertsDays): resolved alerts that resolved before the cutoff, with their
//   transitions (ON DELETE CASCADE); an open alert is never pruned, whatever its age.
// - The audit log (auditDays): entries made before the cutoff, `batchSize` per transaction.
// - The alerts pushes' changes (alert_changes): after ALERT_CHANGES_KEPT_DAYS, whatever the settings.
// - Poll requests between servers (poll_requests, PostgreSQL only): an hour after their answer
//   (POLL_REQUESTS_KEPT_MS), whatever the settings; SQLite has none.
// Live sessions are never pruned. Note: a sync re-lists sessions within its look-back window, so
// a retention shorter than the look-back would see them back-filled.
import type { Store, Tx } from './interface/store'
import type { RetentionSettings } from './settings'

export const DEFAULT_BATCH_SIZE = 5000
const DAY_MS = 86_400_000
/** How long what each alerts push announced is kept (alert_changes). Its readers are behind by a
 *  little: another core, or a server that lost its NOTIFY connection or was down for a weekend and
 *  reads what changed since the revision it holds. A reader further behind reads the alerts whole;
 *  the alerts themselves are kept for `alertsDays`. */
export const ALERT_CHANGES_KEPT_DAYS = 7
/** How long a poll request is kept once answered (or run out unanswered): its asker has read
 *  the answer within the request's deadline, minutes at most; the hour is for an operator's look. */
export const POLL_REQUESTS_KEPT_MS = 60 * 60_000

export interface PruneCounts {
  snapshots: number
  viewerLists: number
  /** Viewers in the lists pruned (their network connections and breakdowns went with them). */
  viewers: number
  sessions: number
  /** Resolved alerts pruned (their transitions went with them). */
  alerts: number
  /** Audit log entries pruned. */
  auditEntries: number
  /** Alert changes pruned (what pushes announced, alert_changes). */
  alertChanges: number
  /** Poll requests between servers forgotten (poll_requests). */
  pollRequests: number
  /** Units of work (transactions) run. */
  batches: number
}

/** One unit's work, for progress and for tests that check batches stay bounded. */
export interface PruneBatch {
  table: 'snapshots' | 'viewer_lists' | 'sessions' | 'alerts' | 'audit_log' | 'alert_changes' | 'poll_requests'
  rows: number
  /** For viewer lists: the viewers they held. */
  viewers?: number
}

export interface PruneOptions {
  batchSize?: number
  onBatch?: (batch: PruneBatch) => void
}

export const emptyCounts = (): PruneCounts => ({ snapshots: 0, viewerLists: 0, viewers: 0, sessions: 0, alerts: 0, auditEntries: 0, alertChanges: 0, pollRequests: 0, batches: 0 })
const cutoff = (now: number, days: number | null): number | null => (days === null ? null : now - days * DAY_MS)

/**
 * The prune as a sequence of units of work: each `next()` runs one and yields what it did, so a
 * caller can pause between them (RetentionJob) or run them back to back (pruneOnce).
 */
export async function* pruneSteps(store: Store, settings: RetentionSettings, now: number, options: PruneOptions = {}): AsyncGenerator<PruneBatch, PruneCounts> {
  const batchSize = Math.max(1, Math.trunc(options.batchSize ?? DEFAULT_BATCH_SIZE))
  const counts = emptyCounts()
  const done = (batch: PruneBatch): PruneBatch => {
    countBatch(counts, batch)
    options.onBatch?.(batch)
    return batch
  }
  const retention = <T>(work: (tx: Tx) => Promise<T>): Promise<T> => store.withTransaction(work)

  /** Runs `removeBatch` (one unit of at most `batchSize` rows) until nothing is left. */
  async function* repeatedly(table: PruneBatch['table'], removeBatch: () => Promise<number>): AsyncGenerator<PruneBatch> {
    for (;;) {
      const rows = await removeBatch()
      if (rows === 0) return
      yield done({ table, rows })
      if (rows < batchSize) return
    }
  }

  /** Whole lists, up to `batchSize` viewers per unit, until none is left. */
  async function* lists(removeBatch: () => Promise<{ lists: number; viewers: number }>): AsyncGenerator<PruneBatch> {
    for (;;) {
      const { lists: rows, viewers } = await removeBatch()
      if (rows === 0) return
      yield done({ table: 'viewer_lists', rows, viewers })
    }
  }

  const snapshotsBefore = cutoff(now, settings.snapshotsDays)
  if (snapshotsBefore !== null) {
    yield* repeatedly('snapshots', () => retention((tx) => tx.retention.pruneSnapshots(snapshotsBefore, batchSize)))
  }

  const listsBefore = cutoff(now, settings.viewerListsDays)
  if (listsBefore !== null) yield* lists(() => retention((tx) => tx.retention.pruneViewerLists(listsBefore, batchSize)))

  const sessionsBefore = cutoff(now, settings.sessionsDays)
  if (sessionsBefore !== null) {
    // What they hold first, in the batches above, then the session rows.
    yield* repeatedly('snapshots', () => retention((tx) => tx.retention.pruneSnapshotsOfEndedSessions(sessionsBefore, batchSize)))
    yield* lists(() => retention((tx) => tx.retention.pruneViewerListsOfEndedSessions(sessionsBefore, batchSize)))
    yield* repeatedly('sessions', () => retention((tx) => tx.retention.pruneEndedSessions(sessionsBefore, batchSize)))
  }

  const alertsBefore = cutoff(now, settings.alertsDays)
  if (alertsBefore !== null) yield* repeatedly('alerts', () => retention((tx) => tx.retention.pruneResolvedAlerts(alertsBefore, batchSize)))

  const auditBefore = cutoff(now, settings.auditDays)
  if (auditBefore !== null) yield* repeatedly('audit_log', () => retention((tx) => tx.retention.pruneAudit(auditBefore, batchSize)))

  const changesBefore = now - ALERT_CHANGES_KEPT_DAYS * DAY_MS
  yield* repeatedly('alert_changes', () => retention((tx) => tx.coreState.pruneAlertChanges(changesBefore, batchSize)))

  const requestsBefore = now - POLL_REQUESTS_KEPT_MS
  yield* repeatedly('poll_requests', () => retention((tx) => tx.retention.prunePollRequests(requestsBefore, batchSize)))
  return counts
}

/** Adds one unit's work to `counts`. */
export function countBatch(counts: PruneCounts, batch: PruneBatch): void {
  counts.batches++
  if (batch.table === 'snapshots') counts.snapshots += batch.rows
  if (batch.table === 'viewer_lists') {
    counts.viewerLists += batch.rows
    counts.viewers += batch.viewers ?? 0
  }
  if (batch.table === 'sessions') counts.sessions += batch.rows
  if (batch.table === 'alerts') counts.alerts += batch.rows
  if (batch.table === 'audit_log') counts.auditEntries += batch.rows
  if (batch.table === 'alert_changes') counts.alertChanges += batch.rows
  if (batch.table === 'poll_requests') counts.pollRequests += batch.rows
}

/** Prunes everything due at `now`, back to back. */
export async function pruneOnce(store: Store, settings: RetentionSettings, now: number, options: PruneOptions = {}): Promise<PruneCounts> {
  const steps = pruneSteps(store, settings, now, options)
  let step = await steps.next()
  while (!step.done) step = await steps.next()
  return step.value
}
