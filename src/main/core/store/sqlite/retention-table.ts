// The retention concern of a Tx on one SQLite connection: each call deletes one batch (the unit
// is its transaction). Sessions are keyed by rowid here; the lists go whole, never split.
import type { Db } from '../db'
import type { ListsPruned, RetentionStore } from '../interface/retention'
import { pruneAudit } from '../audit'
import { statement } from '../statements'
import type { Runners } from './runners'

/** Lists examined per batch (lists are few and small rows). */
const LISTS_PER_LOOK = 100

// Expired sessions: ended, started before @cutoff (index sessions_past_all_by_start).
const ENDED_SESSIONS = 'SELECT connection_id, event_session_id FROM sessions WHERE started_at < @cutoff AND has_ended = 1'

interface ListRow {
  connection_id: string
  event_session_id: string
  viewer_count: number
}

/** Deletes whole lists from those `look` finds, up to `budget` viewers (one list at least). */
function deleteLists(db: Db, look: string, cutoff: number, budget: number): ListsPruned {
  const candidates = statement(db, `${look} LIMIT ${LISTS_PER_LOOK}`).all({ cutoff }) as ListRow[]
  const remove = statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL')
  const pruned: ListsPruned = { lists: 0, viewers: 0 }
  for (const list of candidates) {
    if (pruned.lists > 0 && pruned.viewers + list.viewer_count > budget) break
    remove.run(list.connection_id, list.event_session_id)
    pruned.lists++
    pruned.viewers += list.viewer_count
  }
  return pruned
}

/** Deletes the rows `select` picks from `table`, at most `limit`. */
const deleteIds = (db: Db, table: 'snapshots' | 'alerts', select: string, cutoff: number, limit: number): number =>
  statement(db, `DELETE FROM ${table} WHERE id IN (${select} LIMIT @limit)`).run({ cutoff, limit }).changes

export function retentionTable(db: Db, { write }: Runners): RetentionStore {
  return {
    pruneSnapshots: (before, limit) => write(() => deleteIds(db, 'snapshots', 'SELECT id FROM snapshots WHERE taken_at < @cutoff', before, limit)),
    pruneViewerLists: (before, budget) =>
      write(() =>
        deleteLists(
          db,
          'SELECT connection_id, event_session_id, viewer_count FROM viewer_lists WHERE fetched_at < @cutoff AND staged_at IS NULL ORDER BY fetched_at',
          before,
          budget
        )
      ),
    pruneSnapshotsOfEndedSessions: (startedBefore, limit) =>
      write(() =>
        deleteIds(
          db,
          'snapshots',
          `SELECT sn.id FROM (${ENDED_SESSIONS}) s JOIN snapshots sn
             ON sn.connection_id = s.connection_id AND sn.event_session_id = s.event_session_id`,
          startedBefore,
          limit
        )
      ),
    pruneViewerListsOfEndedSessions: (startedBefore, budget) =>
      write(() =>
        deleteLists(
          db,
          `SELECT vl.connection_id, vl.event_session_id, vl.viewer_count FROM (${ENDED_SESSIONS}) s JOIN viewer_lists vl
             ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL`,
          startedBefore,
          budget
        )
      ),
    pruneEndedSessions: (startedBefore, limit) =>
      write(
        () =>
          statement(db, `DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE started_at < @cutoff AND has_ended = 1 LIMIT @limit)`).run({
            cutoff: startedBefore,
            limit
          }).changes
      ),
    // Index alerts_by_resolved; an open alert has no resolved_at and is never picked.
    pruneResolvedAlerts: (before, limit) =>
      write(() => deleteIds(db, 'alerts', "SELECT id FROM alerts WHERE resolved_at < @cutoff AND state = 'resolved'", before, limit)),
    pruneAudit: (before, limit) => write(() => pruneAudit(db, before, limit)),
    // No poll_requests on SQLite (one server per file asks nobody): nothing to forget.
    prunePollRequests: () => write(() => 0)
  }
}
