// What a viewer list says of its session as a whole (issue 14), kept with the list when it is
// swapped in (viewer-staging.ts): its peak (the most viewers watching at once, and the first
// moment it was reached), how many viewers had no usable times for it (issue 24), and the last
// endedAt any viewer has. The peak also raises the session's peak_viewers, so History, its sort by
// viewers and the drill-down all show the highest audience known, decided here once.
//
// The peak is streamed from SQLite in time order (queries/list-peak.ts). A viewer without an end
// was still watching when the list was fetched and never leaves; one without a start, or with an
// end before its start, is not counted, and counted as such.
import type { Db } from './db'
import { listPeak } from './queries/list-peak'
import { statement } from './statements'

/**
 * For a list of an ended session: keeps its peak, its viewers without usable times and its last
 * end on it, and raises the session's peak_viewers to the peak. A live session's list is replaced
 * every minute or so and its audience is known from the polls: summing it each time would cost
 * every pass for a figure nobody reads. Its last list, fetched once it ended, is summed
 * (sync-pass.ts fetches one for every session seen ending).
 */
export function keepListSummary(db: Db, listId: number): void {
  const ended = statement(
    db,
    `SELECT s.has_ended AS ended FROM viewer_lists vl
     JOIN sessions s ON s.connection_id = vl.connection_id AND s.event_session_id = vl.event_session_id
     WHERE vl.id = ?`
  ).get(listId) as { ended: number } | undefined
  if (ended?.ended !== 1) return
  const { peak, untimed } = listPeak(db, listId)
  statement(
    db,
    `UPDATE viewer_lists SET peak_viewers = @viewers, peak_at = @at, untimed_viewers = @untimed,
       last_ended_at = (SELECT MAX(ended_at) FROM viewers WHERE list_id = @list)
     WHERE id = @list`
  ).run({ viewers: peak?.viewers ?? null, at: peak?.at ?? null, untimed, list: listId })
  if (!peak) return
  statement(
    db,
    `UPDATE sessions SET peak_viewers = MAX(peak_viewers, @viewers)
     WHERE (connection_id, event_session_id) = (SELECT connection_id, event_session_id FROM viewer_lists WHERE id = @list)`
  ).run({ viewers: peak.viewers, list: listId })
}
