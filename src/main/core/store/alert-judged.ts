// What the alert rules have already judged of each session, as rows: its newest snapshot and its
// newest viewer list. A poll counts once in a streak, and a list's sites once — across a restart
// of the core too. Written in the unit of work of the evaluation that judged them.
import type { Db } from './db'
import { statement } from './statements'

export interface Judged {
  /** The newest snapshot judged (its taken_at); null: none yet. */
  snapshotAt: number | null
  /** The newest viewer list judged for its sites (its fetched_at); null: none yet. */
  listAt: number | null
}

/** A session's newest snapshot or list judged just now. */
export interface JudgedMark {
  eventSessionId: string
  snapshotAt?: number
  listAt?: number
}

/** Per session of the connection, what was judged of it. */
export function judgedOf(db: Db, connectionId: string): Map<string, Judged> {
  const rows = statement(db, 'SELECT event_session_id AS id, snapshot_at AS snapshotAt, list_at AS listAt FROM alert_judged WHERE connection_id = ?').all(
    connectionId
  ) as ({ id: string } & Judged)[]
  return new Map(rows.map(({ id, ...judged }) => [id, judged]))
}

/** Records the marks of one evaluation; the sessions it no longer observes (ended, their alerts
 *  closed) are forgotten. */
export function saveJudged(db: Db, connectionId: string, observed: readonly string[], marks: readonly JudgedMark[]): void {
  statement(db, 'DELETE FROM alert_judged WHERE connection_id = ? AND event_session_id NOT IN (SELECT value FROM json_each(?))').run(
    connectionId,
    JSON.stringify(observed)
  )
  const upsert = statement(
    db,
    `INSERT INTO alert_judged (connection_id, event_session_id, snapshot_at, list_at) VALUES (@connectionId, @eventSessionId, @snapshotAt, @listAt)
     ON CONFLICT (connection_id, event_session_id) DO UPDATE SET
       snapshot_at = COALESCE(excluded.snapshot_at, alert_judged.snapshot_at),
       list_at = COALESCE(excluded.list_at, alert_judged.list_at)`
  )
  for (const mark of marks) upsert.run({ connectionId, eventSessionId: mark.eventSessionId, snapshotAt: mark.snapshotAt ?? null, listAt: mark.listAt ?? null })
}
