// Version 9: a viewer list can be staged beside the one held. Issue 13: a list of a million
// viewers cannot wait in memory until its last page lands, so its pages are written as they
// arrive under a list row marked `staged_at`, and the list is swapped in (the old one dropped,
// the staged one unmarked) in one transaction when the last page is in. Readers only ever see
// unmarked lists; a staged list left by a killed process is dropped at the next start.
//
// The one-list-per-session rule becomes a partial unique index over held lists, so SQLite's
// table rebuild is needed: foreign keys are off for this step (migrate.ts), the table is copied
// with its ids, so the viewers and breakdowns that reference it stay attached.
import type { Migration } from './types'

export const stagedViewerLists: Migration = {
  version: 9,
  name: 'staged-viewer-lists',
  withoutForeignKeys: true,
  up: (db) => {
    db.exec(`
      CREATE TABLE viewer_lists_v9 (
        id               INTEGER PRIMARY KEY,
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        fetched_at       INTEGER NOT NULL,
        viewer_count     INTEGER NOT NULL,
        pages            INTEGER NOT NULL,
        -- The fetched_at of the list the kept breakdowns were computed from (breakdown.ts).
        breakdowns_of    INTEGER,
        -- Set while the list's pages are still arriving (viewer-staging.ts); NULL once held.
        staged_at        INTEGER,
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES sessions (connection_id, event_session_id) ON DELETE CASCADE
      );
      INSERT INTO viewer_lists_v9 (id, connection_id, event_session_id, fetched_at, viewer_count, pages, breakdowns_of)
        SELECT id, connection_id, event_session_id, fetched_at, viewer_count, pages, breakdowns_of FROM viewer_lists;
      DROP TABLE viewer_lists;
      ALTER TABLE viewer_lists_v9 RENAME TO viewer_lists;
      -- One held list per session; staged ones beside it do not count.
      CREATE UNIQUE INDEX viewer_lists_held ON viewer_lists (connection_id, event_session_id) WHERE staged_at IS NULL;
      CREATE INDEX viewer_lists_by_fetched ON viewer_lists (fetched_at);
      CREATE INDEX viewer_lists_staged ON viewer_lists (staged_at) WHERE staged_at IS NOT NULL;
    `)
  }
}
