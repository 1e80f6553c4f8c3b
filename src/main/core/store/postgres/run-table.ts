// The sync runs and diagnostics of a Tx on PostgreSQL: store/sync-runs.ts and diagnostics.ts in
// PostgreSQL's dialect, bounded as they are there. (A `host` column, naming the server that had a
// run or a fault, comes with leases: docs/scaling-plan.md section 1.)
import { redact } from '../../net/redact'
import { DIAGNOSTIC_MESSAGE_MAX, DIAGNOSTICS_KEPT } from '../diagnostics'
import type { ListedDiagnostic, RunStore, SyncRun } from '../interface/runs'
import { SYNC_RUN_ERROR_MAX, SYNC_RUNS_KEPT_PER_CONNECTION } from '../sync-runs'
import { all, one, type Runners } from './sql'

const SELECT_RUN = `SELECT id, connection_id AS "connectionId", kind, started_at AS "startedAt", finished_at AS "finishedAt", outcome,
  listed, snapshots, viewer_lists AS "viewerLists", viewers, problems, error FROM sync_runs`

const SELECT_DIAGNOSTIC = `SELECT d.id, d.connection_id AS "connectionId", c.name AS "connectionName", d.at, d.kind, d.endpoint, d.message
  FROM diagnostics d LEFT JOIN connections c ON c.id = d.connection_id`

export function runTable({ read, write }: Runners): RunStore {
  return {
    list: (connectionId, limit = 50) => all<SyncRun>(read, `${SELECT_RUN} WHERE connection_id = $1 ORDER BY id DESC LIMIT $2`, [connectionId, limit]),
    lastFinished: (connectionId) =>
      one<SyncRun>(read, `${SELECT_RUN} WHERE connection_id = $1 AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`, [connectionId]),
    // Only `connectionId`'s rows when given, only the app-wide ones (of no connection) for null.
    diagnostics(limit = 200, connectionId) {
      if (connectionId === undefined) return all<ListedDiagnostic>(read, `${SELECT_DIAGNOSTIC} ORDER BY d.id DESC LIMIT $1`, [limit])
      if (connectionId === null) return all<ListedDiagnostic>(read, `${SELECT_DIAGNOSTIC} WHERE d.connection_id IS NULL ORDER BY d.id DESC LIMIT $1`, [limit])
      return all<ListedDiagnostic>(read, `${SELECT_DIAGNOSTIC} WHERE d.connection_id = $2 ORDER BY d.id DESC LIMIT $1`, [limit, connectionId])
    },
    async start(connectionId, kind, startedAt) {
      const row = await one<{ id: number }>(write, 'INSERT INTO sync_runs (connection_id, started_at, kind) VALUES ($1, $2, $3) RETURNING id', [
        connectionId,
        startedAt,
        kind
      ])
      const id = row!.id
      // Bounded per connection, oldest first (a 15-second cadence makes 5,760 runs a day).
      await write('DELETE FROM sync_runs WHERE connection_id = $1 AND id <= $2', [connectionId, id - SYNC_RUNS_KEPT_PER_CONNECTION])
      return id
    },
    async finish(id, result, finishedAt) {
      const { count } = await write(
        `UPDATE sync_runs SET finished_at = $2, outcome = $3, listed = $4, snapshots = $5, viewer_lists = $6, viewers = $7,
           problems = $8, error = $9 WHERE id = $1`,
        [
          id,
          finishedAt,
          result.outcome,
          result.listed ?? 0,
          result.snapshots ?? 0,
          result.viewerLists ?? 0,
          result.viewers ?? 0,
          result.problems ?? 0,
          result.error ? redact(result.error).slice(0, SYNC_RUN_ERROR_MAX) : null
        ]
      )
      return count > 0
    },
    async stopUnfinished(connectionId, why, finishedAt) {
      const { count } = await write(
        "UPDATE sync_runs SET finished_at = $2, outcome = 'stopped', error = $3 WHERE connection_id = $1 AND finished_at IS NULL",
        [connectionId, finishedAt, redact(why).slice(0, SYNC_RUN_ERROR_MAX)]
      )
      return count
    },
    async recordDiagnostic(entry) {
      await write('INSERT INTO diagnostics (connection_id, at, kind, endpoint, message) VALUES ($1, $2, $3, $4, $5)', [
        entry.connectionId,
        entry.at,
        entry.kind,
        entry.endpoint,
        redact(entry.message).slice(0, DIAGNOSTIC_MESSAGE_MAX)
      ])
      // Bounded: a service that misbehaves all night must not fill the disk.
      await write('DELETE FROM diagnostics WHERE id <= (SELECT max(id) FROM diagnostics) - $1', [DIAGNOSTICS_KEPT])
    }
  }
}
