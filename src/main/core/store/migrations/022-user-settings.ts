// Version 22: each team user's own settings (issue 25). On a team server every user reads the
// screens in their own time zone, theme and sound; what a user never chose follows the server's.
// One JSON value per user and key, as the app's own `settings` table; gone with its user.
import type { Migration } from './types'

export const userSettings: Migration = {
  version: 22,
  name: 'user-settings',
  up: (db) => {
    db.exec(`
      CREATE TABLE user_settings (
        user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key        TEXT NOT NULL,
        value_json TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
      ) WITHOUT ROWID;
    `)
  }
}
