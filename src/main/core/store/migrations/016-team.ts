// Version 16: the team server (issue 17). Users with a role and a hashed access token, browser
// sign-ins (the hash of each session id, so a stolen copy of the cache lets nobody in), the
// audit log of every change with its author, and the author of each operator's transition and
// maintenance window.
import type { Migration } from './types'

export const team: Migration = {
  version: 16,
  name: 'team',
  up: (db) => {
    db.exec(`
      CREATE TABLE users (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        role        TEXT NOT NULL CHECK (role IN ('operator', 'viewer')),
        -- SHA-256 of the token: the token itself is shown once, never stored.
        token_hash  TEXT NOT NULL UNIQUE,
        created_at  INTEGER NOT NULL,
        rotated_at  INTEGER,
        last_seen_at INTEGER
      );

      CREATE TABLE user_sessions (
        id_hash     TEXT PRIMARY KEY,
        user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX user_sessions_by_user ON user_sessions (user_id);

      CREATE TABLE audit_log (
        id      INTEGER PRIMARY KEY,
        at      INTEGER NOT NULL,
        actor   TEXT NOT NULL,
        action  TEXT NOT NULL,
        -- What it was about, in words ("alert 12", "session conn/abc"); the arguments without secrets.
        subject TEXT,
        detail  TEXT
      );
      CREATE INDEX audit_log_by_at ON audit_log (at);

      ALTER TABLE alert_transitions ADD COLUMN actor TEXT;
      ALTER TABLE maintenance_windows ADD COLUMN created_by TEXT;
    `)
  }
}
