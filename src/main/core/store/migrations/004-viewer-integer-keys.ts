// Version 4: viewer rows keyed by integers instead of repeated text.
//
// Version 2 keyed every viewer row (and every network connection row, and every index entry) by
// (connection id, session id, viewer id) as text: about 100 bytes of key per row, written by the
// ten thousand per list. Measured on 84,618 viewers, storing a list took twice as long as with
// integer keys. Now a viewer list has an integer id, a viewer belongs to its list by that id, and
// a network connection to its viewer by the viewer's rowid. The tenant boundary is unchanged:
// a list still belongs to exactly one (connection, session), and everything below it hangs off
// the list. Cached lists are carried over; the breakdown cache is dropped (it is recomputed on
// the next request).
import type { Migration } from './types'

export const viewerIntegerKeys: Migration = {
  version: 4,
  name: 'viewer-integer-keys',
  up: (db) => {
    db.exec(`
      DROP TABLE viewer_breakdowns;
      -- Renaming keeps the old tables' references to each other consistent while copying.
      ALTER TABLE viewer_connections RENAME TO v3_viewer_connections;
      ALTER TABLE viewers RENAME TO v3_viewers;
      ALTER TABLE viewer_lists RENAME TO v3_viewer_lists;
      DROP INDEX viewers_by_reliability;
      DROP INDEX viewer_lists_by_fetched;

      -- A complete viewer list is held for this session (possibly empty); one per session.
      CREATE TABLE viewer_lists (
        id               INTEGER PRIMARY KEY,
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        fetched_at       INTEGER NOT NULL,
        viewer_count     INTEGER NOT NULL,
        pages            INTEGER NOT NULL,
        -- The fetched_at of the list the kept breakdowns were computed from (breakdown.ts).
        breakdowns_of    INTEGER,
        UNIQUE (connection_id, event_session_id),
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES sessions (connection_id, event_session_id) ON DELETE CASCADE
      );
      -- Retention: viewer lists fetched longer ago than N days.
      CREATE INDEX viewer_lists_by_fetched ON viewer_lists (fetched_at);

      -- A list's viewers, in the order received. A viewer id appears once per list (the store
      -- keeps the last record of a repeated id, as the service's latest word).
      CREATE TABLE viewers (
        id                 INTEGER PRIMARY KEY,
        list_id            INTEGER NOT NULL REFERENCES viewer_lists (id) ON DELETE CASCADE,
        viewer_id          TEXT NOT NULL,
        device_type        TEXT,
        os                 TEXT,
        app                TEXT,
        reliability_score  REAL,
        rebuffering_events REAL,
        rebuffering_time   REAL,
        viewing_time       REAL,
        started_at         INTEGER,
        ended_at           INTEGER,
        cdn_traffic        REAL,
        ecdn_traffic       REAL,
        cdn_responses      REAL,
        cdn_errors         REAL,
        raw_json           TEXT NOT NULL
      );
      -- A session's viewer page, worst reliability first (the default sort and the one the NOC
      -- uses), read straight off the index; also every lookup of a list's viewers (the prefix)
      -- and the cascade when a list is replaced. Other sorts and filters scan the list's rows
      -- (a few ms per 10,000); each further index here would slow every viewer insert.
      CREATE INDEX viewers_by_reliability ON viewers (list_id, reliability_score);

      -- A viewer's network connections, in the order the service listed them.
      CREATE TABLE viewer_connections (
        viewer             INTEGER NOT NULL REFERENCES viewers (id) ON DELETE CASCADE,
        position           INTEGER NOT NULL,
        connection_started INTEGER,
        public_ip          TEXT,
        private_ip         TEXT,
        type_json          TEXT,
        proxy_json         TEXT,
        site_code          REAL,
        PRIMARY KEY (viewer, position)
      ) WITHOUT ROWID;

      -- Breakdowns (by site, device type, OS, app, connection type) computed once per stored
      -- viewer list and dropped with it: a breakdown needs every viewer of the session, too slow
      -- to redo on each screen refresh at NOC scale.
      CREATE TABLE viewer_breakdowns (
        list_id           INTEGER NOT NULL REFERENCES viewer_lists (id) ON DELETE CASCADE,
        dimension         TEXT NOT NULL,
        key               TEXT,
        viewers           INTEGER NOT NULL,
        reliability_sum   REAL,
        reliability_count INTEGER NOT NULL,
        rebuffering_time  REAL,
        watch_time        REAL,
        cdn_errors        REAL,
        cdn_responses     REAL
      );
      CREATE INDEX viewer_breakdowns_by_list ON viewer_breakdowns (list_id, dimension);

      INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages)
        SELECT connection_id, event_session_id, fetched_at, viewer_count, pages FROM v3_viewer_lists;
      -- Old rowids are unique integers already: they become the viewers' ids.
      INSERT INTO viewers (id, list_id, viewer_id, device_type, os, app, reliability_score,
          rebuffering_events, rebuffering_time, viewing_time, started_at, ended_at, cdn_traffic,
          ecdn_traffic, cdn_responses, cdn_errors, raw_json)
        SELECT v.rowid, vl.id, v.viewer_id, v.device_type, v.os, v.app, v.reliability_score,
          v.rebuffering_events, v.rebuffering_time, v.viewing_time, v.started_at, v.ended_at,
          v.cdn_traffic, v.ecdn_traffic, v.cdn_responses, v.cdn_errors, v.raw_json
        FROM v3_viewers v
        JOIN viewer_lists vl ON vl.connection_id = v.connection_id AND vl.event_session_id = v.event_session_id
        ORDER BY v.rowid;
      INSERT INTO viewer_connections (viewer, position, connection_started, public_ip, private_ip,
          type_json, proxy_json, site_code)
        SELECT v.rowid, c.position, c.connection_started, c.public_ip, c.private_ip, c.type_json,
          c.proxy_json, c.site_code
        FROM v3_viewer_connections c
        JOIN v3_viewers v ON v.connection_id = c.connection_id AND v.event_session_id = c.event_session_id
          AND v.viewer_id = c.viewer_id;

      -- Children first, so that no drop cascades into rows about to be dropped anyway.
      DROP TABLE v3_viewer_connections;
      DROP TABLE v3_viewers;
      DROP TABLE v3_viewer_lists;
    `)
  }
}
