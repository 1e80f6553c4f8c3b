// Version 14: site alerts (issue 16). An alert may be about one site of a session (the site code
// of its viewers' current network connection): one open alert per rule, session and site.
import type { Migration } from './types'

export const siteAlerts: Migration = {
  version: 14,
  name: 'site-alerts',
  up: (db) => {
    db.exec(`
      ALTER TABLE alerts ADD COLUMN site TEXT;
      DROP INDEX alerts_one_open;
      CREATE UNIQUE INDEX alerts_one_open ON alerts (connection_id, rule, COALESCE(event_session_id, ''), COALESCE(site, ''))
        WHERE resolved_at IS NULL;
    `)
  }
}
