// Retention: forgets snapshots, viewer lists and (when asked) whole sessions older than the
// settings allow, in short transactions so the writer and the UI never wait long.
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
// Live sessions are never pruned. Note: a sync re-lists sessions within its look-back window, so
// a retention shorter than the look-back would see them back-filled.
import { pruneAlertChanges } from './alert-change-log'
import { pruneAudit } from './audit'
import type { Db } from './db'
import { compact, type CompactOptions, type CompactResult } from './compact'
import type { RetentionSettings } from './settings'
import { statement } from './statements'

export const DEFAULT_BATCH_SIZE = 5000
const DAY_MS = 86_400_000
/** Lists examined per viewer-list transaction (lists are few and small rows). */
const LISTS_PER_LOOK = 100
/** How long what each alerts push announced is kept (alert_changes). Its readers are behind by a
 *  little: another core, or a server that lost its NOTIFY connection or was down for a weekend and
 *  reads what changed since the revision it holds. A reader further behind reads the alerts whole;
 *  the alerts themselves are kept for `alertsDays`. */
export const ALERT_CHANGES_KEPT_DAYS = 7

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
  /** Transactions run. */
  batches: number
}

/** One transaction's work, for progress and for tests that check batches stay bounded. */
export interface PruneBatch {
  table: 'snapshots' | 'viewer_lists' | 'sessions' | 'alerts' | 'audit_log' | 'alert_changes'
  rows: number
  /** For viewer lists: the viewers they held. */
  viewers?: number
}

export interface PruneOptions {
  batchSize?: number
  onBatch?: (batch: PruneBatch) => void
}

export interface PruneResult extends PruneCounts {
  compact: CompactResult
}

export const emptyCounts = (): PruneCounts => ({ snapshots: 0, viewerLists: 0, viewers: 0, sessions: 0, alerts: 0, auditEntries: 0, alertChanges: 0, batches: 0 })
const cutoff = (now: number, days: number | null): number | null => (days === null ? null : now - days * DAY_MS)

// Expired sessions: ended, started before @cutoff (index sessions_past_all_by_start).
const EXPIRED_SESSIONS = 'SELECT connection_id, event_session_id FROM sessions WHERE started_at < @cutoff AND has_ended = 1'

interface ListRow {
  connection_id: string
  event_session_id: string
  viewer_count: number
}

/** Deletes whole lists from `candidates` up to `budget` viewers (at least one list). */
function deleteLists(db: Db, candidates: ListRow[], budget: number): { lists: number; viewers: number } {
  const remove = statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL')
  let lists = 0
  let viewers = 0
  db.transaction(() => {
    for (const list of candidates) {
      if (lists > 0 && viewers + list.viewer_count > budget) break
      remove.run(list.connection_id, list.event_session_id)
      lists++
      viewers += list.viewer_count
    }
  })()
  return { lists, viewers }
}

/**
 * The prune as a sequence of transactions: each `next()` runs one and yields what it did, so a
 * caller can pause between them (RetentionJob) or run them back to back (pruneOnce).
 */
export function* pruneSteps(db: Db, settings: RetentionSettings, now: number, options: PruneOptions = {}): Generator<PruneBatch, PruneCounts> {
  const batchSize = Math.max(1, Math.trunc(options.batchSize ?? DEFAULT_BATCH_SIZE))
  const counts = emptyCounts()
  const done = (batch: PruneBatch): PruneBatch => {
    countBatch(counts, batch)
    options.onBatch?.(batch)
    return batch
  }

  /** Runs `removeBatch` (one transaction of at most `batchSize` rows) until nothing is left. */
  function* repeatedly(table: PruneBatch['table'], removeBatch: () => number): Generator<PruneBatch> {
    for (;;) {
      const rows = removeBatch()
      if (rows === 0) return
      yield done({ table, rows })
      if (rows < batchSize) return
    }
  }

  /** Deletes the rows `select` picks from `table`, `batchSize` per transaction. */
  function* batches(table: 'snapshots' | 'alerts', select: string, params: Record<string, unknown>): Generator<PruneBatch> {
    const remove = statement(db, `DELETE FROM ${table} WHERE id IN (${select} LIMIT @limit)`)
    yield* repeatedly(table, () => remove.run({ ...params, limit: batchSize }).changes)
  }
  const snapshots = (select: string, params: Record<string, unknown>) => batches('snapshots', select, params)

  function* lists(select: string, params: Record<string, unknown>): Generator<PruneBatch> {
    const look = statement(db, `${select} LIMIT ${LISTS_PER_LOOK}`)
    for (;;) {
      const candidates = look.all(params) as ListRow[]
      if (candidates.length === 0) return
      const { lists: rows, viewers } = deleteLists(db, candidates, batchSize)
      yield done({ table: 'viewer_lists', rows, viewers })
    }
  }

  const snapshotsBefore = cutoff(now, settings.snapshotsDays)
  if (snapshotsBefore !== null) {
    yield* snapshots('SELECT id FROM snapshots WHERE taken_at < @cutoff', { cutoff: snapshotsBefore })
  }

  const listsBefore = cutoff(now, settings.viewerListsDays)
  if (listsBefore !== null) {
    yield* lists(
      `SELECT connection_id, event_session_id, viewer_count FROM viewer_lists WHERE fetched_at < @cutoff AND staged_at IS NULL ORDER BY fetched_at`,
      { cutoff: listsBefore }
    )
  }

  const sessionsBefore = cutoff(now, settings.sessionsDays)
  if (sessionsBefore !== null) {
    const params = { cutoff: sessionsBefore }
    yield* snapshots(
      `SELECT sn.id FROM (${EXPIRED_SESSIONS}) s JOIN snapshots sn
         ON sn.connection_id = s.connection_id AND sn.event_session_id = s.event_session_id`,
      params
    )
    yield* lists(
      `SELECT vl.connection_id, vl.event_session_id, vl.viewer_count FROM (${EXPIRED_SESSIONS}) s JOIN viewer_lists vl
         ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL`,
      params
    )
    const remove = statement(
      db,
      `DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE started_at < @cutoff AND has_ended = 1 LIMIT @limit)`
    )
    yield* repeatedly('sessions', () => remove.run({ ...params, limit: batchSize }).changes)
  }

  const alertsBefore = cutoff(now, settings.alertsDays)
  if (alertsBefore !== null) {
    // Index alerts_by_resolved; an open alert has no resolved_at and is never picked.
    yield* batches('alerts', "SELECT id FROM alerts WHERE resolved_at < @cutoff AND state = 'resolved'", { cutoff: alertsBefore })
  }

  const auditBefore = cutoff(now, settings.auditDays)
  if (auditBefore !== null) yield* repeatedly('audit_log', () => pruneAudit(db, auditBefore, batchSize))

  const changesBefore = now - ALERT_CHANGES_KEPT_DAYS * DAY_MS
  yield* repeatedly('alert_changes', () => pruneAlertChanges(db, changesBefore, batchSize))
  return counts
}

/** Adds one transaction's work to `counts`. */
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
}

/** Prunes everything due at `now`, back to back, then checkpoints and reclaims space. */
export function pruneOnce(
  db: Db,
  settings: RetentionSettings,
  now: number,
  options: PruneOptions & CompactOptions = {}
): PruneResult {
  const steps = pruneSteps(db, settings, now, options)
  let step = steps.next()
  while (!step.done) step = steps.next()
  return { ...step.value, compact: compact(db, options) }
}
