// A log of sync runs per connection: when, what kind, how it ended, what it stored. Started
// before the run's first request and finished after its last unit of work, so a run the process
// never finished (kill -9, power loss) stays visible as one with no outcome.
import { redact } from '../net/redact'
import type { Db } from './db'
import { statement } from './statements'

/** What started the run: `sync --once`, a poller's discovery pass or round of live details, an
 *  operator's refresh of one session or fetch of a date range. Free to grow (plain TEXT). */
export const SYNC_RUN_KINDS = ['once', 'discovery', 'details', 'refresh', 'range'] as const
export type SyncRunKind = (typeof SYNC_RUN_KINDS)[number]

export const SYNC_RUN_OUTCOMES = ['ok', 'partial', 'failed', 'stopped'] as const
export type SyncRunOutcome = (typeof SYNC_RUN_OUTCOMES)[number]

export interface SyncRunCounts {
  listed?: number
  snapshots?: number
  viewerLists?: number
  viewers?: number
  problems?: number
}

export interface SyncRunResult extends SyncRunCounts {
  outcome: SyncRunOutcome
  /** A short reason for a failed or partial run (no secrets: pass ApiError messages). */
  error?: string | null
}

export interface SyncRun {
  id: number
  connectionId: string
  kind: string
  startedAt: number
  /** Null while running, or when the process died before finishing it. */
  finishedAt: number | null
  outcome: SyncRunOutcome | null
  listed: number
  snapshots: number
  viewerLists: number
  viewers: number
  problems: number
  error: string | null
}

/** Rows kept per connection: a 15-second cadence makes 5,760 runs a day. */
export const SYNC_RUNS_KEPT_PER_CONNECTION = 10_000
export const SYNC_RUN_ERROR_MAX = 500

/** Records the start of a run; returns its id for finishSyncRun. */
export function startSyncRun(db: Db, connectionId: string, kind: SyncRunKind, startedAt = Date.now()): number {
  const { lastInsertRowid } = statement(
    db,
    'INSERT INTO sync_runs (connection_id, started_at, kind) VALUES (?, ?, ?)'
  ).run(connectionId, startedAt, kind)
  const id = Number(lastInsertRowid)
  // Bounded per connection, oldest first; a cheap range delete on (connection_id, rowid).
  statement(db, 'DELETE FROM sync_runs WHERE connection_id = ? AND id <= ?').run(connectionId, id - SYNC_RUNS_KEPT_PER_CONNECTION)
  return id
}

/** Records how a run ended. False when the run is unknown (pruned, or its connection deleted). */
export function finishSyncRun(db: Db, id: number, result: SyncRunResult, finishedAt = Date.now()): boolean {
  return (
    statement(
      db,
      `UPDATE sync_runs SET finished_at = @finishedAt, outcome = @outcome, listed = @listed, snapshots = @snapshots,
         viewer_lists = @viewerLists, viewers = @viewers, problems = @problems, error = @error
       WHERE id = @id`
    ).run({
      id,
      finishedAt,
      outcome: result.outcome,
      listed: result.listed ?? 0,
      snapshots: result.snapshots ?? 0,
      viewerLists: result.viewerLists ?? 0,
      viewers: result.viewers ?? 0,
      problems: result.problems ?? 0,
      error: result.error ? redact(result.error).slice(0, SYNC_RUN_ERROR_MAX) : null
    }).changes > 0
  )
}

/** A connection's runs, newest first. */
export function listSyncRuns(db: Db, connectionId: string, limit = 50): SyncRun[] {
  return statement(
    db,
    `SELECT id, connection_id AS connectionId, kind, started_at AS startedAt, finished_at AS finishedAt, outcome,
       listed, snapshots, viewer_lists AS viewerLists, viewers, problems, error
     FROM sync_runs WHERE connection_id = ? ORDER BY id DESC LIMIT ?`
  ).all(connectionId, limit) as SyncRun[]
}

/** The connection's latest finished run, if any (for "last synced …"). */
export function lastFinishedSyncRun(db: Db, connectionId: string): SyncRun | null {
  const row = statement(
    db,
    `SELECT id, connection_id AS connectionId, kind, started_at AS startedAt, finished_at AS finishedAt, outcome,
       listed, snapshots, viewer_lists AS viewerLists, viewers, problems, error
     FROM sync_runs WHERE connection_id = ? AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`
  ).get(connectionId) as SyncRun | undefined
  return row ?? null
}

/** Finishes every unfinished run of the connection as stopped, saying why; how many. */
export function stopUnfinishedSyncRuns(db: Db, connectionId: string, why: string, finishedAt = Date.now()): number {
  return statement(
    db,
    "UPDATE sync_runs SET finished_at = ?, outcome = 'stopped', error = ? WHERE connection_id = ? AND finished_at IS NULL"
  ).run(finishedAt, redact(why).slice(0, SYNC_RUN_ERROR_MAX), connectionId).changes
}
