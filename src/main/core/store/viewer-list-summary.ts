// What a viewer list says of its session as a whole (issue 14), kept with the list when it is
// swapped in (viewer-staging.ts): its peak (the most viewers watching at once, and the first
// moment it was reached) and the last endedAt any viewer has. The peak also raises the
// session's peak_viewers, so History, its sort by viewers and the drill-down all show the
// highest audience known, decided here once.
//
// The peak comes from the same sweep as the story's (queries/viewer-story.ts): the list read once
// into sorted start and end times. A viewer without an end was still watching when the list was
// fetched and never leaves; one without a start is not counted.
import type { Db } from './db'
import { listPeak } from './queries/viewer-story'
import { statement } from './statements'

export interface ListPeak {
  viewers: number
  /** ms since epoch. */
  at: number
}

/** The list's peak; null when no viewer of it has a start time. */
export function viewerListPeak(db: Db, listId: number): ListPeak | null {
  return listPeak(db, listId)
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
