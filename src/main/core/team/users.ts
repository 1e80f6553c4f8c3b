// The team server's users: created with a role and a token shown once, rotated, removed; and the
// two ways in — a token (scripts, desktop clients) or a browser session started with one.
import { UserName, type UserRole, type UserView } from '../../../shared/team'
import type { TeamStore, UserRecord } from './team-store'
import { hashSecret, newSessionId, newUserToken } from './tokens'
import { isUniqueViolation } from '../store/unique-violation'

/** A browser stays signed in this long (a wall screen for a month), then signs in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60_000

/** A name taken or unknown: the administrator's to fix (a 'configuration' error, exit code 2). */
export class UserError extends Error {
  readonly kind = 'configuration'
}

/** "Last seen" is kept to the minute: a busy page must not write to the cache on every request. */
const TOUCH_EVERY_MS = 60_000

export class TeamUsers {
  private readonly touched = new Map<number, number>()

  constructor(
    private readonly store: TeamStore,
    private readonly clock: () => number = Date.now
  ) {}

  list(): Promise<UserView[]> {
    return this.store.users.list()
  }

  /** The token is in the answer and nowhere else: it cannot be shown again. */
  async add(name: string, role: UserRole): Promise<{ user: UserView; token: string }> {
    const parsed = UserName.safeParse(name)
    if (!parsed.success) throw new UserError(`"${name.slice(0, 64)}" is not a user name: ${parsed.error.issues[0]?.message ?? 'invalid'}.`)
    const taken = (): UserError => new UserError(`there is already a user named ${parsed.data}.`)
    if (await this.store.users.find(parsed.data)) throw taken()
    const token = newUserToken()
    try {
      return { user: await this.store.users.insert({ name: parsed.data, role, tokenHash: hashSecret(token) }, this.clock()), token }
    } catch (error) {
      // Added meanwhile by another server of the team (or the CLI beside it).
      if (isUniqueViolation(error)) throw taken()
      throw error
    }
  }

  /** A new token; the old one and every browser signed in with it stop working at once. */
  async rotate(name: string): Promise<string> {
    const token = newUserToken()
    if (!(await this.store.users.replaceToken(name, hashSecret(token), this.clock()))) throw new UserError(`there is no user named ${name}.`)
    return token
  }

  remove(name: string): Promise<boolean> {
    return this.store.users.remove(name)
  }

  /** The user a token belongs to, or null. */
  async byToken(token: string): Promise<UserRecord | null> {
    const user = await this.store.users.byTokenHash(hashSecret(token))
    if (user) await this.seen(user.id)
    return user
  }

  private async seen(id: number): Promise<void> {
    const now = this.clock()
    if (now - (this.touched.get(id) ?? -Infinity) < TOUCH_EVERY_MS) return
    this.touched.set(id, now)
    await this.store.users.touch(id, now)
  }

  /** Starts a browser session for the token's user; null when the token is nobody's. */
  async signIn(token: string): Promise<{ sessionId: string; user: UserRecord } | null> {
    const user = await this.byToken(token)
    if (!user) return null
    const now = this.clock()
    await this.store.sessions.removeExpired(now)
    const sessionId = newSessionId()
    await this.store.sessions.insert({ idHash: hashSecret(sessionId), userId: user.id, expiresAt: now + SESSION_LIFETIME_MS }, now)
    return { sessionId, user }
  }

  async bySession(sessionId: string): Promise<UserRecord | null> {
    const user = await this.store.sessions.userByHash(hashSecret(sessionId), this.clock())
    if (user) await this.seen(user.id)
    return user
  }

  signOut(sessionId: string): Promise<void> {
    return this.store.sessions.remove(hashSecret(sessionId))
  }
}
