// The team server's users: created with a role and a token shown once, rotated, removed; and the
// two ways in — a token (scripts, desktop clients) or a browser session started with one.
import { UserName, type UserRole, type UserView } from '../../../shared/team'
import type { Db } from '../store/db'
import {
  deleteExpiredUserSessions,
  deleteUser,
  deleteUserSession,
  findUser,
  insertUser,
  insertUserSession,
  listUsers,
  replaceUserToken,
  touchUser,
  userBySessionHash,
  userByTokenHash,
  type UserRecord
} from '../store/users'
import { hashSecret, newSessionId, newUserToken } from './tokens'

/** A browser stays signed in this long (a wall screen for a month), then signs in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60_000

export class UserError extends Error {}

export class TeamUsers {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now
  ) {}

  list(): UserView[] {
    return listUsers(this.db)
  }

  /** The token is in the answer and nowhere else: it cannot be shown again. */
  add(name: string, role: UserRole): { user: UserView; token: string } {
    const parsed = UserName.safeParse(name)
    if (!parsed.success) throw new UserError(`"${name.slice(0, 64)}" is not a user name: ${parsed.error.issues[0]?.message ?? 'invalid'}.`)
    if (findUser(this.db, parsed.data)) throw new UserError(`there is already a user named ${parsed.data}.`)
    const token = newUserToken()
    return { user: insertUser(this.db, { name: parsed.data, role, tokenHash: hashSecret(token) }, this.clock()), token }
  }

  /** A new token; the old one and every browser signed in with it stop working at once. */
  rotate(name: string): string {
    const token = newUserToken()
    if (!replaceUserToken(this.db, name, hashSecret(token), this.clock())) throw new UserError(`there is no user named ${name}.`)
    return token
  }

  remove(name: string): boolean {
    return deleteUser(this.db, name)
  }

  /** The user a token belongs to, or null. */
  byToken(token: string): UserRecord | null {
    const user = userByTokenHash(this.db, hashSecret(token))
    if (user) touchUser(this.db, user.id, this.clock())
    return user
  }

  /** Starts a browser session for the token's user; null when the token is nobody's. */
  signIn(token: string): { sessionId: string; user: UserRecord } | null {
    const user = this.byToken(token)
    if (!user) return null
    const now = this.clock()
    deleteExpiredUserSessions(this.db, now)
    const sessionId = newSessionId()
    insertUserSession(this.db, { idHash: hashSecret(sessionId), userId: user.id, expiresAt: now + SESSION_LIFETIME_MS }, now)
    return { sessionId, user }
  }

  bySession(sessionId: string): UserRecord | null {
    const user = userBySessionHash(this.db, hashSecret(sessionId), this.clock())
    if (user) touchUser(this.db, user.id, this.clock())
    return user
  }

  signOut(sessionId: string): void {
    deleteUserSession(this.db, hashSecret(sessionId))
  }
}
