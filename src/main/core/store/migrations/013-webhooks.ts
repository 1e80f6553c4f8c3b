// Version 13: webhooks and their durable outbox (issue 16). A delivery is a row before it is a
// request: it survives a restart, is retried with backoff, and carries an idempotency key that
// is unique per webhook, so one alert event is queued once however often it is announced.
import type { Migration } from './types'

export const webhooks: Migration = {
  version: 13,
  name: 'webhooks',
  up: (db) => {
    db.exec(`
      CREATE TABLE webhooks (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        url        TEXT NOT NULL,
        format     TEXT NOT NULL CHECK (format IN ('json', 'teams', 'slack')),
        -- A signing secret is kept in the keychain (account webhook:<id>), never here.
        signed     INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX webhooks_by_name ON webhooks (name COLLATE NOCASE);

      CREATE TABLE webhook_outbox (
        id              INTEGER PRIMARY KEY,
        webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        idempotency_key TEXT NOT NULL,
        event           TEXT NOT NULL,
        alert_id        INTEGER,
        -- The body as sent (JSON, Teams or Slack), made when queued: a retry sends the same.
        body            TEXT NOT NULL,
        created_at      INTEGER NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error      TEXT,
        delivered_at    INTEGER,
        given_up_at     INTEGER,
        UNIQUE (webhook_id, idempotency_key)
      );
      CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at)
        WHERE delivered_at IS NULL AND given_up_at IS NULL;
    `)
  }
}
