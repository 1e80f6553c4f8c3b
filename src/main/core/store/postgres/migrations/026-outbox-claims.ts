// Version 26: claims on the webhook outbox, as SQLite's step 26 (store/migrations/026-outbox-claims.ts):
// who claimed a webhook's head to send it, and until when (bigint ms, as next_attempt_at). The
// partial index finds each webhook's head without reading its delivered rows.
import type { PgMigration } from './types'

export const outboxClaims: PgMigration = {
  version: 26,
  name: 'outbox-claims',
  sql: `
ALTER TABLE webhook_outbox ADD COLUMN claimed_by text, ADD COLUMN claimed_until bigint;
CREATE INDEX webhook_outbox_waiting ON webhook_outbox (webhook_id, id) WHERE delivered_at IS NULL AND given_up_at IS NULL;
`
}
