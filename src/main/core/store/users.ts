// Named queries over the team server's users and their browser sign-ins: the only place their SQL
// lives. Tokens and session ids arrive here already hashed (core/team/tokens.ts).
import type { UserRole, UserView } from '../../../shared/team'
import type { Db } from './db'
import { statement } from './statements'
import { isoOrNull } from './queries/sql'

export interface UserRecord {
  id: number
  name: string
  role: UserRole
}

interface UserRow extends UserRecord {
  createdAt: number
  rotatedAt: number | null
  lastSeenAt: number | null
}

const SELECT_USER = 'SELECT id, name, role, created_at AS createdAt, rotated_at AS rotatedAt, last_seen_at AS lastSeenAt FROM users'

const view = (r: UserRow): UserView => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdAt: new Date(r.createdAt).toISOString(),
  rotatedAt: isoOrNull(r.rotatedAt),
  lastSeenAt: isoOrNull(r.lastSeenAt)
})

export function listUsers(db: Db): UserView[] {
  return (statement(db, `${SELECT_USER} ORDER BY name`).all() as UserRow[]).map(view)
}

export function findUser(db: Db, name: string): UserView | null {
  const row = statement(db, `${SELECT_USER} WHERE name = ?`).get(name) as UserRow | undefined
  return row ? view(row) : null
}

export function insertUser(db: Db, user: { name: string; role: UserRole; tokenHash: string }, now: number): UserView {
  const { lastInsertRowid } = statement(db, 'INSERT INTO users (name, role, token_hash, created_at) VALUES (?, ?, ?, ?)').run(
    user.name,
    user.role,
    user.tokenHash,
    now
  )
  return view(statement(db, `${SELECT_USER} WHERE id = ?`).get(Number(lastInsertRowid)) as UserRow)
}

/** A new token for `name`; every browser signed in with the old one is signed out. */
export function replaceUserToken(db: Db, name: string, tokenHash: string, now: number): boolean {
  return db.transaction(() => {
    const user = findUser(db, name)
    if (!user) return false
    statement(db, 'UPDATE users SET token_hash = ?, rotated_at = ? WHERE id = ?').run(tokenHash, now, user.id)
    statement(db, 'DELETE FROM user_sessions WHERE user_id = ?').run(user.id)
    return true
  })()
}

/** Removes the user and (by cascade) every browser signed in as them. */
export function deleteUser(db: Db, name: string): boolean {
  return statement(db, 'DELETE FROM users WHERE name = ?').run(name).changes > 0
}

export function userByTokenHash(db: Db, tokenHash: string): UserRecord | null {
  return (statement(db, 'SELECT id, name, role FROM users WHERE token_hash = ?').get(tokenHash) as UserRecord | undefined) ?? null
}

export function insertUserSession(db: Db, session: { idHash: string; userId: number; expiresAt: number }, now: number): void {
  statement(db, 'INSERT INTO user_sessions (id_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    session.idHash,
    session.userId,
    now,
    session.expiresAt
  )
}

/** The user a browser session belongs to, while it has not expired. */
export function userBySessionHash(db: Db, idHash: string, now: number): UserRecord | null {
  return (
    (statement(
      db,
      `SELECT u.id, u.name, u.role FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id_hash = ? AND s.expires_at > ?`
    ).get(idHash, now) as UserRecord | undefined) ?? null
  )
}

export function deleteUserSession(db: Db, idHash: string): void {
  statement(db, 'DELETE FROM user_sessions WHERE id_hash = ?').run(idHash)
}

export function deleteExpiredUserSessions(db: Db, now: number): number {
  return statement(db, 'DELETE FROM user_sessions WHERE expires_at <= ?').run(now).changes
}

export function touchUser(db: Db, id: number, now: number): void {
  statement(db, 'UPDATE users SET last_seen_at = ? WHERE id = ?').run(now, id)
}
