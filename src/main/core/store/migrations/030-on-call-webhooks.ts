// Version 30: webhooks to on-call tools (issue 27). A webhook's format may be PagerDuty's Events
// API v2 or Opsgenie's Alert API besides JSON, Teams and Slack; and a delivery may go to a path
// under its webhook's address (`path`): Opsgenie acknowledges and closes an alert at
// /v2/alerts/<alias>/acknowledge|close, decided when the delivery is queued, as its body is.
//
// The format's CHECK cannot be changed in place: the table is rebuilt as in version 19 (foreign
// keys off for this step, rows copied with their ids, so the outbox's rows stay attached).
import type { Migration } from './types'

export const onCallWebhooks: Migration = {
  version: 30,
  name: 'on-call-webhooks',
  withoutForeignKeys: true,
  up: (db) => {
    db.exec(`
      CREATE TABLE webhooks_v30 (
        id                    TEXT PRIMARY KEY,
        name                  TEXT NOT NULL,
        url                   TEXT NOT NULL,
        format                TEXT NOT NULL CHECK (format IN ('json', 'teams', 'slack', 'pagerduty', 'opsgenie')),
        -- A secret (signing, or an on-call tool's key) is kept in the keychain (account webhook:<id>), never here.
        signed                INTEGER NOT NULL DEFAULT 0,
        created_at            INTEGER NOT NULL,
        url_query_in_keychain INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO webhooks_v30 (id, name, url, format, signed, created_at, url_query_in_keychain)
        SELECT id, name, url, format, signed, created_at, url_query_in_keychain FROM webhooks;
      DROP TABLE webhooks;
      ALTER TABLE webhooks_v30 RENAME TO webhooks;
      CREATE UNIQUE INDEX webhooks_by_name ON webhooks (name COLLATE NOCASE);

      -- Where under the webhook's URL the delivery goes ("/v2/alerts/…/close?identifierType=alias"); NULL: the URL itself.
      ALTER TABLE webhook_outbox ADD COLUMN path TEXT;
    `)
  }
}
