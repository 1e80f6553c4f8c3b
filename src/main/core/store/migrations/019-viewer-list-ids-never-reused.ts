// Version 19: a viewer list's id is never given twice (issue 23). A staged list is written by the
// one fetch that began it, which knows it by its id (viewer-staging.ts). SQLite gives a new row
// the largest id plus one, so once the newest list row was dropped (by a second fetch of the same
// session, as staging did before this version, or as abandoned, or with its session) the next
// list staged took its id, and the fetch that began the dropped one went on writing its pages
// into another fetch's list: a list of 3 viewers held 5 rows. With AUTOINCREMENT an id is never
// reused, so such a page finds no list and fails, naming why.
//
// AUTOINCREMENT cannot be added in place: the table is rebuilt as in version 9 (foreign keys off
// for this step, rows copied with their ids, so viewers and breakdowns stay attached).
import type { Migration } from './types'

export const viewerListIdsNeverReused: Migration = {
  version: 19,
  name: 'viewer-list-ids-never-reused',
  withoutForeignKeys: true,
  up: (db) => {
    db.exec(`
      CREATE TABLE viewer_lists_v19 (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        fetched_at       INTEGER NOT NULL,
        viewer_count     INTEGER NOT NULL,
        pages            INTEGER NOT NULL,
        -- The fetched_at of the list the kept breakdowns were computed from (breakdown.ts).
        breakdowns_of    INTEGER,
        -- Set while the list's pages are still arriving (viewer-staging.ts); NULL once held.
        staged_at        INTEGER,
        -- What the list says of its session (viewer-list-summary.ts, version 10).
        peak_viewers     INTEGER,
        peak_at          INTEGER,
        last_ended_at    INTEGER,
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES sessions (connection_id, event_session_id) ON DELETE CASCADE
      );
      -- Inserting the ids sets the table's sequence to the largest: new lists come after them.
      INSERT INTO viewer_lists_v19 (id, connection_id, event_session_id, fetched_at, viewer_count, pages,
          breakdowns_of, staged_at, peak_viewers, peak_at, last_ended_at)
        SELECT id, connection_id, event_session_id, fetched_at, viewer_count, pages,
          breakdowns_of, staged_at, peak_viewers, peak_at, last_ended_at
        FROM viewer_lists;
      DROP TABLE viewer_lists;
      ALTER TABLE viewer_lists_v19 RENAME TO viewer_lists;
      -- One held list per session; staged ones beside it do not count.
      CREATE UNIQUE INDEX viewer_lists_held ON viewer_lists (connection_id, event_session_id) WHERE staged_at IS NULL;
      CREATE INDEX viewer_lists_by_fetched ON viewer_lists (fetched_at);
      CREATE INDEX viewer_lists_staged ON viewer_lists (staged_at) WHERE staged_at IS NOT NULL;
    `)
  }
}
