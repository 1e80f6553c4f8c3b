// What a viewer list says of its ended session as a whole, kept with the list when it is swapped
// in, on PostgreSQL (viewer-list-summary.ts says what and why). The peak is swept in SQL: the
// process holds one row of it, whatever the list's size.
import { USABLE_TIMES } from '../queries/list-peak'
import { one, type Sql } from './sql'

/** The most watching at once among list $1's viewers with usable times, and the first instant. */
const LIST_PEAK = `
  WITH events AS (
    SELECT started_at AS t, 1 AS step FROM viewers WHERE list_id = $1 AND ${USABLE_TIMES}
    UNION ALL
    SELECT ended_at, -1 FROM viewers WHERE list_id = $1 AND ${USABLE_TIMES} AND ended_at IS NOT NULL
  ),
  running AS (
    SELECT t, step, sum(step) OVER w AS watching, row_number() OVER w AS n
    FROM events WINDOW w AS (ORDER BY t, step ROWS UNBOUNDED PRECEDING)
  )
  SELECT watching AS viewers, t AS at FROM running WHERE step = 1 ORDER BY watching DESC, n LIMIT 1`

/** For a list of an ended session: keeps its peak, untimed viewers and last end, and raises the
 *  session's peak_viewers to the peak; a live session's list is left alone. In the caller's transaction. */
export async function keepListSummary(write: Sql, listId: number): Promise<void> {
  const ended = await one<{ ended: boolean }>(
    write,
    `SELECT s.has_ended AS ended FROM viewer_lists vl
     JOIN sessions s ON s.connection_id = vl.connection_id AND s.event_session_id = vl.event_session_id
     WHERE vl.id = $1`,
    [listId]
  )
  if (!ended?.ended) return
  const peak = await one<{ viewers: number; at: number }>(write, LIST_PEAK, [listId])
  await write(
    `UPDATE viewer_lists SET peak_viewers = $2, peak_at = $3, last_ended_at = figures.last_ended, untimed_viewers = figures.untimed
     FROM (SELECT max(ended_at) AS last_ended, count(*) FILTER (WHERE NOT (${USABLE_TIMES})) AS untimed FROM viewers WHERE list_id = $1) figures
     WHERE id = $1`,
    [listId, peak?.viewers ?? null, peak?.at ?? null]
  )
  if (!peak) return
  await write(
    `UPDATE sessions s SET peak_viewers = GREATEST(s.peak_viewers, $2)
     FROM viewer_lists vl WHERE vl.id = $1 AND s.connection_id = vl.connection_id AND s.event_session_id = vl.event_session_id`,
    [listId, peak.viewers]
  )
}
