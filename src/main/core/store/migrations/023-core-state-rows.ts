// Version 23: what the core decided that lived only in its memory becomes rows (issue 25, plan
// step 4), so a restarted core — or a second one on the same file — sees the same state:
// - `revisions`: the count every face weighs the alerts' pushes by, and the epoch it is in (one
//   counter for every process on the file, so no revision is handed out twice in one epoch);
// - `poller_status`: each connection's pause flag ('*': every connection, and those started later),
//   and its poller's last status (state, last successful update, error, offline since);
// - `alert_cooling`: the conditions a cooldown holds back now, which the situation counts;
// - `alert_judged`: each session's newest snapshot and viewer list the rules judged (a poll counts once);
// - `alerts.repeat_step`: the last step of a critical's repeat grid announced (null: none yet).
import type { Migration } from './types'

export const coreStateRows: Migration = {
  version: 23,
  name: 'core-state-rows',
  up: (db) => {
    db.exec(`
      CREATE TABLE revisions (
        name  TEXT PRIMARY KEY,
        epoch TEXT NOT NULL,
        value INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE poller_status (
        connection_id TEXT PRIMARY KEY,
        paused        INTEGER NOT NULL DEFAULT 0,
        state         TEXT,
        last_update_at INTEGER,
        last_error    TEXT,
        offline_since INTEGER,
        updated_at    INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE alert_cooling (
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        rule             TEXT NOT NULL,
        site             TEXT NOT NULL DEFAULT '',
        severity         TEXT NOT NULL,
        summary          TEXT NOT NULL,
        PRIMARY KEY (connection_id, event_session_id, rule, site)
      ) WITHOUT ROWID;
      CREATE TABLE alert_judged (
        connection_id    TEXT NOT NULL,
        event_session_id TEXT NOT NULL,
        snapshot_at      INTEGER,
        list_at          INTEGER,
        PRIMARY KEY (connection_id, event_session_id)
      ) WITHOUT ROWID;
      ALTER TABLE alerts ADD COLUMN repeat_step INTEGER;
    `)
  }
}
