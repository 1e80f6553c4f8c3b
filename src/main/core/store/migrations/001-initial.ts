// Version 1: connections, sessions as the API reported them (plus raw JSON), and snapshots.
import type { Migration } from './types'

export const initial: Migration = {
  version: 1,
  name: 'initial',
  up: (db) => {
    db.exec(`
      CREATE TABLE connections (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        base_url    TEXT NOT NULL,
        auth_url    TEXT NOT NULL,
        platform_id TEXT NOT NULL,
        tenant_id   TEXT NOT NULL,
        client_id   TEXT NOT NULL,
        is_demo     INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL
      );

      CREATE TABLE sessions (
        connection_id     TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        event_session_id  TEXT NOT NULL,
        platform_id       TEXT NOT NULL,
        tenant_id         TEXT NOT NULL,
        content_id        TEXT NOT NULL,
        event_name        TEXT,
        started_at        INTEGER NOT NULL,
        updated_at        INTEGER NOT NULL,
        has_ended         INTEGER NOT NULL,
        viewers_count     INTEGER NOT NULL,
        reliability_score REAL NOT NULL,
        cdn_traffic       INTEGER NOT NULL,
        ecdn_traffic      INTEGER NOT NULL,
        raw_json          TEXT NOT NULL,
        first_seen_at     INTEGER NOT NULL,
        last_polled_at    INTEGER NOT NULL,
        PRIMARY KEY (connection_id, event_session_id)
      );
      CREATE INDEX sessions_live ON sessions (has_ended, connection_id);
      CREATE INDEX sessions_by_start ON sessions (connection_id, started_at);

      CREATE TABLE snapshots (
        id                INTEGER PRIMARY KEY,
        connection_id     TEXT NOT NULL,
        event_session_id  TEXT NOT NULL,
        taken_at          INTEGER NOT NULL,
        viewers_count     INTEGER NOT NULL,
        reliability_score REAL NOT NULL,
        cdn_traffic       INTEGER NOT NULL,
        ecdn_traffic      INTEGER NOT NULL,
        FOREIGN KEY (connection_id, event_session_id)
          REFERENCES sessions (connection_id, event_session_id) ON DELETE CASCADE
      );
      CREATE INDEX snapshots_by_session_time ON snapshots (connection_id, event_session_id, taken_at);
    `)
  }
}
