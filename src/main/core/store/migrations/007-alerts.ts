// Version 7: alerts. One row per alert (pending until it fires, then firing, acknowledged,
// snoozed or muted until it resolves) and one row per transition with its time, the value that
// moved it and a note, so the history survives restarts and is reviewable offline. Per-session
// overrides (mute, own levels) and the notifications pause. Everything belongs to a connection
// and goes with it.
import type { Migration } from './types'

export const alerts: Migration = {
  version: 7,
  name: 'alerts',
  up: (db) => {
    db.exec(`
      CREATE TABLE alerts (
        id                 INTEGER PRIMARY KEY,
        rule               TEXT NOT NULL,
        connection_id      TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        -- NULL: a connection-wide alert (monitor blind).
        event_session_id   TEXT,
        -- Kept on the alert, so its history reads well after retention drops the session.
        event_name         TEXT,
        state              TEXT NOT NULL
          CHECK (state IN ('pending', 'firing', 'acknowledged', 'snoozed', 'muted', 'resolved')),
        severity           TEXT NOT NULL CHECK (severity IN ('warning', 'critical')),
        summary            TEXT NOT NULL,
        opened_at          INTEGER NOT NULL,
        fired_at           INTEGER,
        resolved_at        INTEGER,
        snoozed_until      INTEGER,
        snooze_session_end INTEGER NOT NULL DEFAULT 0,
        -- Polls in a row the condition held (pending) or the recovery held (since firing).
        streak             INTEGER NOT NULL DEFAULT 0
      );
      -- At most one open alert per rule and session (or connection): a restart continues it.
      CREATE UNIQUE INDEX alerts_one_open ON alerts (connection_id, rule, COALESCE(event_session_id, ''))
        WHERE resolved_at IS NULL;
      -- Cooldowns (the last resolve per rule and session) and a session's alerts (chart marks).
      CREATE INDEX alerts_by_session ON alerts (connection_id, event_session_id, rule, resolved_at);
      -- The history, newest first.
      CREATE INDEX alerts_by_resolved ON alerts (resolved_at);

      CREATE TABLE alert_transitions (
        id       INTEGER PRIMARY KEY,
        alert_id INTEGER NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
        at       INTEGER NOT NULL,
        state    TEXT NOT NULL,
        severity TEXT NOT NULL,
        value    REAL,
        note     TEXT
      );
      CREATE INDEX alert_transitions_by_alert ON alert_transitions (alert_id, id);

      CREATE TABLE alert_overrides (
        connection_id    TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
        event_session_id TEXT NOT NULL,
        muted            INTEGER NOT NULL DEFAULT 0,
        warning          REAL,
        critical         REAL,
        PRIMARY KEY (connection_id, event_session_id)
      ) WITHOUT ROWID;

      -- One row at most: notifications paused until this instant (a maintenance window).
      CREATE TABLE notification_pause (
        id    INTEGER PRIMARY KEY CHECK (id = 1),
        until INTEGER NOT NULL
      );
    `)
  }
}
