// Version 2: connection settings (enabled, Origin/Referer, look-back), the latest viewer list per
// session with network connections as rows of their own, and a log of API trouble.
import type { Migration } from './types'

export const connectionsViewersDiagnostics: Migration = {
  version: 2,
  name: 'connections-viewers-diagnostics',
  up: (db) => {
    db.exec(`
      ALTER TABLE connections ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE connections ADD COLUMN origin TEXT;
      ALTER TABLE connections ADD COLUMN referer TEXT;
      ALTER TABLE connections ADD COLUMN lookback_days INTEGER NOT NULL DEFAULT 7;
      ALTER TABLE connections ADD COLUMN updated_at INTEGER;
      CREATE UNIQUE INDEX connections_by_name ON connections (name COLLATE NOCASE);

      -- A complete viewer list is held for this session (possibly empty).
      CREATE TABLE viewer_lists (
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        fetched_at       INTEGER NOT NULL,
        viewer_count     INTEGER NOT NULL,
        pages            INTEGER NOT NULL,
        PRIMARY KEY (connection_id, event_session_id),
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES sessions (connection_id, event_session_id) ON DELETE CASCADE
      );

      CREATE TABLE viewers (
        connection_id      TEXT NOT NULL,
        event_session_id   TEXT NOT NULL,
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
        raw_json           TEXT NOT NULL,
        PRIMARY KEY (connection_id, event_session_id, viewer_id),
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES viewer_lists (connection_id, event_session_id) ON DELETE CASCADE
      );

      CREATE TABLE viewer_connections (
        connection_id      TEXT NOT NULL,
        event_session_id   TEXT NOT NULL,
        viewer_id          TEXT NOT NULL,
        position           INTEGER NOT NULL,
        connection_started INTEGER,
        public_ip          TEXT,
        private_ip         TEXT,
        type_json          TEXT,
        proxy_json         TEXT,
        site_code          REAL,
        PRIMARY KEY (connection_id, event_session_id, viewer_id, position),
        FOREIGN KEY (connection_id, event_session_id, viewer_id)
          REFERENCES viewers (connection_id, event_session_id, viewer_id) ON DELETE CASCADE
      );

      CREATE TABLE diagnostics (
        id            INTEGER PRIMARY KEY,
        connection_id TEXT,
        at            INTEGER NOT NULL,
        kind          TEXT NOT NULL,
        endpoint      TEXT NOT NULL,
        message       TEXT NOT NULL
      );
      CREATE INDEX diagnostics_by_time ON diagnostics (at);
    `)
  }
}
