// Each team user's own settings in `user_settings` (migration 022): the only place their SQL
// lives. Today that is their display (time zone, theme, sound); only the fields a user chose are
// kept, so what they never chose follows the server's. Read field by field, as the app's own.
import { PersonalDisplaySchema, type PersonalDisplay } from '../../../shared/settings'
import type { Db } from './db'
import { parseStored, validFields } from './settings'
import { statement } from './statements'

const DISPLAY_KEY = 'display'

/** The display fields `userName` chose (none for an unknown user). */
export function getUserDisplay(db: Db, userName: string): Partial<PersonalDisplay> {
  const row = statement(
    db,
    'SELECT us.value_json FROM user_settings us JOIN users u ON u.id = us.user_id WHERE u.name = ? AND us.key = ?'
  ).get(userName, DISPLAY_KEY) as { value_json: string } | undefined
  return validFields(parseStored(row?.value_json), PersonalDisplaySchema)
}

/** Adds `change` to what `userName` chose; throws a ZodError (nothing written) for an invalid
 *  value. Answers what they chose now, or null when there is no such user. */
export function setUserDisplay(db: Db, userName: string, change: Partial<PersonalDisplay>): Partial<PersonalDisplay> | null {
  return db.transaction(() => {
    const next = PersonalDisplaySchema.partial().strict().parse({ ...getUserDisplay(db, userName), ...change })
    const written = statement(
      db,
      `INSERT INTO user_settings (user_id, key, value_json) SELECT id, ?, ? FROM users WHERE name = ?
         ON CONFLICT (user_id, key) DO UPDATE SET value_json = excluded.value_json`
    ).run(DISPLAY_KEY, JSON.stringify(next), userName).changes
    return written > 0 ? next : null
  })()
}
