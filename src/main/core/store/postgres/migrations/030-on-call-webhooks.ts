// Version 30: webhooks to on-call tools (issue 27; SQLite's migrations/030-… says why). The
// format's CHECK takes PagerDuty and Opsgenie, and a delivery may go to a path under its
// webhook's address (Opsgenie's acknowledge and close by alias).
import type { PgMigration } from './types'

export const onCallWebhooks: PgMigration = {
  version: 30,
  name: 'on-call-webhooks',
  sql: `
ALTER TABLE webhooks DROP CONSTRAINT webhooks_format_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_format_check CHECK (format IN ('json', 'teams', 'slack', 'pagerduty', 'opsgenie'));
ALTER TABLE webhook_outbox ADD COLUMN path text;
`
}
