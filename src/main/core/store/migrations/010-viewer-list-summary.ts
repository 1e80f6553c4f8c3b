// Version 10: a viewer list keeps its peak (the most viewers watching at once, and when) and its
// viewers' last endedAt, and the session's peak_viewers rises to the peak (issue 14: past
// sessions never watched live showed no peak although their viewer list was cached). Lists held
// before this version get theirs here, once. The sweep is the one viewer-list-summary.ts runs,
// written out so that this step stays as it shipped.
import type { Migration } from './types'

const PEAK_OF_LIST = `
  SELECT running AS viewers, t AS at FROM (
    SELECT t, SUM(d) OVER (ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS running FROM (
      SELECT started_at AS t, 1 AS d FROM viewers WHERE list_id = @list AND started_at IS NOT NULL
      UNION ALL
      SELECT MAX(ended_at, started_at), -1 FROM viewers WHERE list_id = @list AND started_at IS NOT NULL AND ended_at IS NOT NULL
    )
  )
  ORDER BY running DESC, t LIMIT 1`

export const viewerListSummary: Migration = {
  version: 10,
  name: 'viewer-list-summary',
  up: (db) => {
    db.exec(`
      ALTER TABLE viewer_lists ADD COLUMN peak_viewers INTEGER;
      ALTER TABLE viewer_lists ADD COLUMN peak_at INTEGER;
      ALTER TABLE viewer_lists ADD COLUMN last_ended_at INTEGER;
      UPDATE viewer_lists SET last_ended_at = (SELECT MAX(ended_at) FROM viewers WHERE list_id = viewer_lists.id)
        WHERE staged_at IS NULL;
    `)
    const peakOf = db.prepare(PEAK_OF_LIST)
    const keep = db.prepare('UPDATE viewer_lists SET peak_viewers = @viewers, peak_at = @at WHERE id = @list')
    const raise = db.prepare(
      `UPDATE sessions SET peak_viewers = MAX(peak_viewers, @viewers)
       WHERE (connection_id, event_session_id) = (SELECT connection_id, event_session_id FROM viewer_lists WHERE id = @list)`
    )
    const lists = db.prepare('SELECT id FROM viewer_lists WHERE staged_at IS NULL').pluck().all() as number[]
    for (const list of lists) {
      const peak = peakOf.get({ list }) as { viewers: number; at: number } | undefined
      if (!peak || peak.viewers <= 0) continue
      keep.run({ ...peak, list })
      raise.run({ ...peak, list })
    }
  }
}
