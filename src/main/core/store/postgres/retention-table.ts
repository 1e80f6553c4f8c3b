// The retention concern of a Tx on PostgreSQL: each call deletes one batch (the unit is its
// transaction), as on SQLite (sqlite/retention-table.ts). The lists go whole, never split: their
// rows and breakdowns here, their viewers and connections afterwards, a batch at a time (the purge
// of postgres/viewer-purge.ts, which the retention job runs after the prune: open-cache.ts). Rows
// are picked by key, LIMIT in a subquery (PostgreSQL has no DELETE … LIMIT).
import type { ListsPruned, RetentionStore } from '../interface/retention'
import { all, type Runners, type Sql } from './sql'

/** Lists examined per batch (lists are few and small rows). */
const LISTS_PER_LOOK = 100

// Expired sessions: ended, started before $1.
const ENDED_SESSIONS = 'SELECT connection_id, event_session_id FROM sessions WHERE started_at < $1 AND has_ended'

/** Deletes whole lists from those `look` finds (`$1`: the cutoff), up to `budget` viewers (one list at least). */
async function deleteLists(write: Sql, look: string, cutoff: number, budget: number): Promise<ListsPruned> {
  const candidates = await all<{ id: number; viewer_count: number }>(write, `${look} LIMIT ${LISTS_PER_LOOK}`, [cutoff])
  const ids: number[] = []
  const pruned: ListsPruned = { lists: 0, viewers: 0 }
  for (const list of candidates) {
    if (pruned.lists > 0 && pruned.viewers + list.viewer_count > budget) break
    ids.push(list.id)
    pruned.lists++
    pruned.viewers += list.viewer_count
  }
  if (ids.length > 0) await write('DELETE FROM viewer_lists WHERE id = ANY($1::bigint[]) AND staged_at IS NULL', [ids])
  return pruned
}

/** Deletes the rows `select` (`$1`: the cutoff) picks from `table`, at most `limit`. */
const deleteIds = async (write: Sql, table: 'snapshots' | 'alerts' | 'audit_log' | 'poll_requests', select: string, cutoff: number, limit: number): Promise<number> =>
  (await write(`DELETE FROM ${table} WHERE id IN (${select} LIMIT $2)`, [cutoff, limit])).count

export function retentionTable({ write }: Runners): RetentionStore {
  return {
    pruneSnapshots: (before, limit) => deleteIds(write, 'snapshots', 'SELECT id FROM snapshots WHERE taken_at < $1', before, limit),
    pruneViewerLists: (before, budget) =>
      deleteLists(write, 'SELECT id, viewer_count FROM viewer_lists WHERE fetched_at < $1 AND staged_at IS NULL ORDER BY fetched_at, id', before, budget),
    pruneSnapshotsOfEndedSessions: (startedBefore, limit) =>
      deleteIds(
        write,
        'snapshots',
        `SELECT sn.id FROM (${ENDED_SESSIONS}) s JOIN snapshots sn
           ON sn.connection_id = s.connection_id AND sn.event_session_id = s.event_session_id`,
        startedBefore,
        limit
      ),
    pruneViewerListsOfEndedSessions: (startedBefore, budget) =>
      deleteLists(
        write,
        `SELECT vl.id, vl.viewer_count FROM (${ENDED_SESSIONS}) s JOIN viewer_lists vl
           ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL`,
        startedBefore,
        budget
      ),
    pruneEndedSessions: async (startedBefore, limit) =>
      (
        await write(
          `DELETE FROM sessions WHERE (connection_id, event_session_id) IN (${ENDED_SESSIONS} LIMIT $2)`,
          [startedBefore, limit]
        )
      ).count,
    pruneResolvedAlerts: (before, limit) =>
      deleteIds(write, 'alerts', "SELECT id FROM alerts WHERE resolved_at < $1 AND state = 'resolved'", before, limit),
    pruneAudit: (before, limit) => deleteIds(write, 'audit_log', 'SELECT id FROM audit_log WHERE at < $1', before, limit),
    // Answered, or run out unanswered (an asker that died waiting never withdrew it).
    prunePollRequests: (before, limit) =>
      deleteIds(
        write,
        'poll_requests',
        'SELECT id FROM poll_requests WHERE coalesce(answered_at, expires_at) < to_timestamp($1::double precision / 1000) ORDER BY id',
        before,
        limit
      )
  }
}
