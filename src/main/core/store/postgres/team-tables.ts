// The team's tables of a Tx on PostgreSQL (users, their sign-ins, the audit log): store/users.ts,
// user-settings.ts and audit.ts in PostgreSQL's dialect. Names match whatever their case, as
// SQLite's NOCASE column did: lower(name) here and in the unique index.
import { PersonalDisplaySchema, type PersonalDisplay } from '../../../../shared/settings'
import type { AuditEntry, UserRole, UserView } from '../../../../shared/team'
import type { TeamTables, UserRecord } from '../interface/team'
import { isoOrNull } from '../queries/sql'
import { validFields } from '../settings'
import { all, one, type Runners, type Sql } from './sql'

interface UserRow {
  id: number
  name: string
  role: UserRole
  created_at: number
  rotated_at: number | null
  last_seen_at: number | null
}

const SELECT_USER = 'SELECT id, name, role, created_at, rotated_at, last_seen_at FROM users'
const BY_NAME = 'lower(name) = lower($1)'
const DISPLAY_KEY = 'display'

const view = (r: UserRow): UserView => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdAt: new Date(r.created_at).toISOString(),
  rotatedAt: isoOrNull(r.rotated_at),
  lastSeenAt: isoOrNull(r.last_seen_at)
})

async function display(sql: Sql, name: string, lock: boolean): Promise<Partial<PersonalDisplay>> {
  const row = await one<{ value_json: unknown }>(
    sql,
    `SELECT us.value_json FROM user_settings us JOIN users u ON u.id = us.user_id
     WHERE lower(u.name) = lower($1) AND us.key = $2${lock ? ' FOR UPDATE OF us' : ''}`,
    [name, DISPLAY_KEY]
  )
  return validFields(row?.value_json, PersonalDisplaySchema)
}

export function teamTables({ read, write }: Runners): TeamTables {
  return {
    users: {
      list: async () => (await all<UserRow>(read, `${SELECT_USER} ORDER BY lower(name)`)).map(view),
      async find(name) {
        const row = await one<UserRow>(read, `${SELECT_USER} WHERE ${BY_NAME}`, [name])
        return row ? view(row) : null
      },
      byTokenHash: (hash) => one<UserRecord>(read, 'SELECT id, name, role FROM users WHERE token_hash = $1', [hash]),
      async insert(user, now) {
        const row = await one<UserRow>(
          write,
          'INSERT INTO users (name, role, token_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id, name, role, created_at, rotated_at, last_seen_at',
          [user.name, user.role, user.tokenHash, now]
        )
        return view(row!)
      },
      // Every browser signed in with the old token is signed out with it.
      async replaceToken(name, hash, now) {
        const user = await one<{ id: number }>(write, `UPDATE users SET token_hash = $2, rotated_at = $3 WHERE ${BY_NAME} RETURNING id`, [name, hash, now])
        if (!user) return false
        await write('DELETE FROM user_sessions WHERE user_id = $1', [user.id])
        return true
      },
      remove: async (name) => (await write(`DELETE FROM users WHERE ${BY_NAME}`, [name])).count > 0,
      async touch(id, now) {
        await write('UPDATE users SET last_seen_at = $2 WHERE id = $1', [id, now])
      },
      display: (name) => display(read, name, false),
      async saveDisplay(name, change) {
        // Locks the user's kept display (if any) before merging into it; the user row too, so a
        // first save by two servers at once ends in one row holding both changes.
        const user = await one<{ id: number }>(write, `SELECT id FROM users WHERE ${BY_NAME} FOR UPDATE`, [name])
        if (!user) return null
        const next = PersonalDisplaySchema.partial().strict().parse({ ...(await display(write, name, true)), ...change })
        await write(
          `INSERT INTO user_settings (user_id, key, value_json) VALUES ($1, $2, $3::jsonb)
           ON CONFLICT (user_id, key) DO UPDATE SET value_json = excluded.value_json`,
          [user.id, DISPLAY_KEY, JSON.stringify(next)]
        )
        return next
      }
    },
    sessions: {
      userByHash: (hash, now) =>
        one<UserRecord>(
          read,
          `SELECT u.id, u.name, u.role FROM user_sessions s JOIN users u ON u.id = s.user_id
           WHERE s.id_hash = $1 AND s.expires_at > $2`,
          [hash, now]
        ),
      async insert(session, now) {
        await write('INSERT INTO user_sessions (id_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
          session.idHash,
          session.userId,
          now,
          session.expiresAt
        ])
      },
      async remove(hash) {
        await write('DELETE FROM user_sessions WHERE id_hash = $1', [hash])
      },
      removeExpired: async (now) => (await write('DELETE FROM user_sessions WHERE expires_at <= $1', [now])).count
    },
    audit: {
      async list(query) {
        const rows = await all<Omit<AuditEntry, 'at'> & { at: number }>(
          read,
          'SELECT id, at, actor, action, subject, detail FROM audit_log WHERE id < $1 ORDER BY id DESC LIMIT $2',
          [query.before ?? Number.MAX_SAFE_INTEGER, query.limit ?? 200]
        )
        return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }))
      },
      async record(entry, now) {
        await write('INSERT INTO audit_log (at, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5)', [
          now,
          entry.actor,
          entry.action,
          entry.subject,
          entry.detail
        ])
      }
    }
  }
}
