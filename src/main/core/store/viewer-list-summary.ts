// What a viewer list says of its session as a whole (issue 14), kept with the list when it is
// swapped in (viewer-staging.ts): its peak (the most viewers watching at once, and the first
// moment it was reached) and the last endedAt any viewer has. The peak also raises the
// session's peak_viewers, so History, its sort by viewers and the drill-down all show the
// highest audience known, decided here once.
//
// The peak's sweep runs in SQLite (a window sum over the joins and leaves in time order, a leave
// before a join at the same instant): nothing of the list crosses into JavaScript. A viewer
// without an end was still watching when the list was fetched and never leaves; one without a
// start is not counted. viewer-story.ts draws the same sweep over time.
import type { Db } from './db'
import { statement } from './statements'

const PEAK_SQL = `
  SELECT running AS viewers, t AS at FROM (
    SELECT t, SUM(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS running FROM (
      SELECT started_at AS t, 1 AS d FROM viewers WHERE list_id = @list AND started_at IS NOT NULL
      UNION ALL
      SELECT MAX(ended_at, started_at), -1 FROM viewers WHERE list_id = @list AND started_at IS NOT NULL AND ended_at IS NOT NULL
    )
  )
  ORDER BY running DESC, t LIMIT 1`

export interface ListPeak {
  viewers: number
  /** ms since epoch. */
  at: number
}

/** The list's peak; null when no viewer of it has a start time. */
export function viewerListPeak(db: Db, listId: number): ListPeak | null {
  const peak = statement(db, PEAK_SQL).get({ list: listId }) as ListPeak | undefined
  return peak && peak.viewers > 0 ? peak : null
}

/**
 * For a list of an ended session: keeps its peak and last end on it, and raises the session's
 * peak_viewers to the peak. A live session's list is replaced every minute or so and its
 * audience is known from the polls: summing it each time would cost every pass (about 140 ms of
 * CPU per 85,000 viewers) for a figure nobody reads. Its last list, fetched once it ended, is
 * summed (sync-pass.ts fetches one for every session seen ending).
 */
export function keepListSummary(db: Db, listId: number): void {
  const ended = statement(
    db,
    `SELECT s.has_ended AS ended FROM viewer_lists vl
     JOIN sessions s ON s.connection_id = vl.connection_id AND s.event_session_id = vl.event_session_id
     WHERE vl.id = ?`
  ).get(listId) as { ended: number } | undefined
  if (ended?.ended !== 1) return
  const peak = viewerListPeak(db, listId)
  statement(
    db,
    `UPDATE viewer_lists SET peak_viewers = @viewers, peak_at = @at,
       last_ended_at = (SELECT MAX(ended_at) FROM viewers WHERE list_id = @list)
     WHERE id = @list`
  ).run({ viewers: peak?.viewers ?? null, at: peak?.at ?? null, list: listId })
  if (!peak) return
  statement(
    db,
    `UPDATE sessions SET peak_viewers = MAX(peak_viewers, @viewers)
     WHERE (connection_id, event_session_id) = (SELECT connection_id, event_session_id FROM viewer_lists WHERE id = @list)`
  ).run({ viewers: peak.viewers, list: listId })
}
