// Version 15: maintenance windows (issue 16): planned silences, once or recurring, for everything,
// one connection, one content id or one session. Alerts are still evaluated and recorded inside
// them; only their announcements (notifications, webhooks) are held back.
import type { Migration } from './types'

export const maintenanceWindows: Migration = {
  version: 15,
  name: 'maintenance-windows',
  up: (db) => {
    db.exec(`
      CREATE TABLE maintenance_windows (
        id               INTEGER PRIMARY KEY,
        name             TEXT NOT NULL,
        starts_at        INTEGER NOT NULL,
        ends_at          INTEGER NOT NULL CHECK (ends_at > starts_at),
        repeat           TEXT NOT NULL DEFAULT 'none' CHECK (repeat IN ('none', 'daily', 'weekly')),
        -- All NULL: everything. Otherwise the connection, and within it a content id or a session.
        connection_id    TEXT REFERENCES connections(id) ON DELETE CASCADE,
        content_id       TEXT,
        event_session_id TEXT,
        created_at       INTEGER NOT NULL
      );
    `)
  }
}
