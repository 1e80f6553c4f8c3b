// Version 26: claims on the webhook outbox (issue 26; scaling-plan.md section 3, "Draining the
// outbox"). Several deliverers on one database (servers on PostgreSQL, or cores on one cache file)
// each send a delivery only after claiming it: `claimed_by` names the deliverer, `claimed_until`
// (host ms, as `next_attempt_at`) when its claim runs out and another may take the delivery again.
// Only a webhook's head (its oldest waiting delivery) is ever claimed, so its order holds. The
// index finds each webhook's head without reading its delivered rows, kept for a week.
import type { Migration } from './types'

export const outboxClaims: Migration = {
  version: 26,
  name: 'outbox-claims',
  up: (db) => {
    db.exec(`
      ALTER TABLE webhook_outbox ADD COLUMN claimed_by TEXT;
      ALTER TABLE webhook_outbox ADD COLUMN claimed_until INTEGER;
      CREATE INDEX webhook_outbox_waiting ON webhook_outbox (webhook_id, id) WHERE delivered_at IS NULL AND given_up_at IS NULL;
    `)
  }
}
