// Version 21: a session's peak is what polls saw while it was live, or what its viewers' times say
// (issue 24). A session first seen after it ended had its peak_viewers raised by the service's
// count after the end (some services give everyone who watched), and History called that a peak
// "from polls" although no poll ever saw it live: its peak is now its viewer list's, or unknown.
// A summed list (one of an ended session) keeps how many of its viewers had no usable times —
// no start, or an end before their start — and were left out of its peak.
import type { Migration } from './types'

export const peaksWhileLive: Migration = {
  version: 21,
  name: 'peaks-while-live',
  up: (db) => {
    db.exec(`
      ALTER TABLE viewer_lists ADD COLUMN untimed_viewers INTEGER;
      UPDATE viewer_lists SET untimed_viewers = (
          SELECT COUNT(*) FROM viewers v
          WHERE v.list_id = viewer_lists.id AND NOT (v.started_at IS NOT NULL AND (v.ended_at IS NULL OR v.ended_at >= v.started_at)))
        WHERE staged_at IS NULL AND EXISTS (
          SELECT 1 FROM sessions s WHERE s.connection_id = viewer_lists.connection_id
            AND s.event_session_id = viewer_lists.event_session_id AND s.has_ended = 1);
      UPDATE sessions SET peak_viewers = COALESCE((
          SELECT vl.peak_viewers FROM viewer_lists vl
          WHERE vl.connection_id = sessions.connection_id AND vl.event_session_id = sessions.event_session_id
            AND vl.staged_at IS NULL), 0)
        WHERE has_ended = 1 AND ended_observed_at = first_seen_at;
    `)
  }
}
