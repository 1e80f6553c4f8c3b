// Version 3: the cache made complete — when a session was seen ending and its peak audience,
// a log of sync runs, app settings, breakdowns cached per viewer list, diagnostics owned by
// their connection, and the indexes the screens and the retention job need.
//
// Indexes are chosen against ingest cost: viewers are written by the ten thousand per list, so
// they get ONE extra index (the default sort); sessions, snapshots and lists are written a few
// rows per poll, so they may have several. Each index below names the screen it serves.
import type { Migration } from './types'

export const cacheComplete: Migration = {
  version: 3,
  name: 'cache-complete',
  up: (db) => {
    db.exec(`
      -- When the cache first saw hasEnded = true (NULL while live); sessions.ts keeps it.
      ALTER TABLE sessions ADD COLUMN ended_observed_at INTEGER;
      -- The highest viewersCount the cache saw: an ended session reports 0 viewers, so "sort
      -- past sessions by viewers" needs the peak, kept on every upsert rather than MAX()ed over
      -- millions of snapshots.
      ALTER TABLE sessions ADD COLUMN peak_viewers INTEGER NOT NULL DEFAULT 0;

      -- Sessions that ended before this version: the last poll is the best known upper bound.
      UPDATE sessions SET ended_observed_at = last_polled_at WHERE has_ended = 1;
      UPDATE sessions SET peak_viewers = MAX(viewers_count, COALESCE((
        SELECT MAX(sn.viewers_count) FROM snapshots sn
        WHERE sn.connection_id = sessions.connection_id AND sn.event_session_id = sessions.event_session_id
      ), 0));

      -- Past sessions. has_ended leads: without statistics the planner would otherwise take
      -- sessions_live and sort. By start time, one connection's or all of them (the latter also
      -- finds retention's "ended before"); the name and id ride along so that a name *search*
      -- (a substring LIKE, which no B-tree can seek) and its count scan the index, not the rows
      -- with their raw JSON: ~3 ms for 10,000 sessions. FTS5 would add shadow tables, triggers
      -- and token-only matching for no gain at this size. By name (the A–Z sort): two more.
      -- Sorting by peak viewers or reliability sorts the matching rows (a few ms at 10,000).
      CREATE INDEX sessions_past_by_start ON sessions (has_ended, connection_id, started_at, event_name, event_session_id);
      CREATE INDEX sessions_past_all_by_start ON sessions (has_ended, started_at, event_name, event_session_id);
      CREATE INDEX sessions_past_by_name ON sessions (has_ended, connection_id, event_name COLLATE NOCASE);
      CREATE INDEX sessions_past_all_by_name ON sessions (has_ended, event_name COLLATE NOCASE);

      -- Retention: snapshots older than N days, found without scanning millions of rows.
      CREATE INDEX snapshots_by_time ON snapshots (taken_at);
      -- Retention: viewer lists fetched longer ago than N days.
      CREATE INDEX viewer_lists_by_fetched ON viewer_lists (fetched_at);

      -- A session's viewer page, worst reliability first (the default sort and the one the NOC
      -- uses): a page is read straight off the index. Other sorts and filters scan the session's
      -- viewers (a few ms per 10,000); each further index here would slow every viewer insert.
      CREATE INDEX viewers_by_reliability ON viewers (connection_id, event_session_id, reliability_score);

      -- Breakdowns (by site, device type, OS, app, connection type) computed once per stored
      -- viewer list, on first request, and dropped with the list (FK cascade): a breakdown needs
      -- every viewer of the session, too slow to redo on each screen refresh at NOC scale.
      ALTER TABLE viewer_lists ADD COLUMN breakdowns_of INTEGER;
      CREATE TABLE viewer_breakdowns (
        connection_id     TEXT NOT NULL,
        event_session_id  TEXT NOT NULL,
        dimension         TEXT NOT NULL,
        key               TEXT,
        viewers           INTEGER NOT NULL,
        reliability_sum   REAL,
        reliability_count INTEGER NOT NULL,
        rebuffering_time  REAL,
        watch_time        REAL,
        cdn_errors        REAL,
        cdn_responses     REAL,
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES viewer_lists (connection_id, event_session_id) ON DELETE CASCADE
      );
      CREATE INDEX viewer_breakdowns_by_list ON viewer_breakdowns (connection_id, event_session_id, dimension);

      -- One row per sync run (a pass, a one-shot sync, a date-range fetch, …). A run that never
      -- finished (the process died) keeps finished_at and outcome NULL.
      CREATE TABLE sync_runs (
        id            INTEGER PRIMARY KEY,
        connection_id TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        started_at    INTEGER NOT NULL,
        finished_at   INTEGER,
        kind          TEXT NOT NULL,
        outcome       TEXT CHECK (outcome IN ('ok', 'partial', 'failed', 'stopped')),
        listed        INTEGER NOT NULL DEFAULT 0,
        snapshots     INTEGER NOT NULL DEFAULT 0,
        viewer_lists  INTEGER NOT NULL DEFAULT 0,
        viewers       INTEGER NOT NULL DEFAULT 0,
        problems      INTEGER NOT NULL DEFAULT 0,
        error         TEXT
      );
      -- A connection's runs, newest first (rowid order within the key), and the FK cascade.
      CREATE INDEX sync_runs_by_connection ON sync_runs (connection_id);

      -- App-wide settings as JSON, validated by their readers (settings.ts).
      CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
      ) WITHOUT ROWID;

      -- Diagnostics belong to their connection: listed per connection, gone with it. A trigger,
      -- since the table predates foreign keys to connections and rows may have none (NULL).
      CREATE INDEX diagnostics_by_connection ON diagnostics (connection_id);
      CREATE TRIGGER diagnostics_follow_connection AFTER DELETE ON connections
      BEGIN
        DELETE FROM diagnostics WHERE connection_id = OLD.id;
      END;
    `)
  }
}
