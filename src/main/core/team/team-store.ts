// The team's own tables behind one asynchronous interface: users (and the display each chose for
// themselves), their browser sessions and the audit log. SQLite answers today (store/users.ts,
// store/user-settings.ts, store/audit.ts, synchronously underneath); the PostgreSQL store of
// several servers (docs/scaling-plan.md) implements the same interface, so the team server, its
// gate and the CLI do not change when the store does.
import type { PersonalDisplay } from '../../../shared/settings'
import type { AuditEntry, UserRole, UserView } from '../../../shared/team'
import { listAudit, recordAudit, type AuditRecord } from '../store/audit'
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
import { getUserDisplay, setUserDisplay } from '../store/user-settings'

export type { UserRecord }

export interface TeamStore {
  users: {
    list(): Promise<UserView[]>
    find(name: string): Promise<UserView | null>
    insert(user: { name: string; role: UserRole; tokenHash: string }, now: number): Promise<UserView>
    /** A new token hash; every session of the user ends with the old one. */
    replaceToken(name: string, tokenHash: string, now: number): Promise<boolean>
    remove(name: string): Promise<boolean>
    byTokenHash(tokenHash: string): Promise<UserRecord | null>
    touch(id: number, now: number): Promise<void>
    /** The display fields the user chose for themselves (none: the server's hold). */
    display(name: string): Promise<Partial<PersonalDisplay>>
    /** Adds to what the user chose; null when there is no such user. */
    saveDisplay(name: string, change: Partial<PersonalDisplay>): Promise<Partial<PersonalDisplay> | null>
  }
  sessions: {
    insert(session: { idHash: string; userId: number; expiresAt: number }, now: number): Promise<void>
    userByHash(idHash: string, now: number): Promise<UserRecord | null>
    remove(idHash: string): Promise<void>
    removeExpired(now: number): Promise<number>
  }
  audit: {
    record(entry: AuditRecord, now: number): Promise<void>
    list(query: { limit?: number | undefined; before?: number | undefined }): Promise<AuditEntry[]>
  }
}

/** The team's tables in the cache file itself. */
export function sqliteTeamStore(db: Db): TeamStore {
  // Each call is one statement or one transaction of the synchronous driver: answered at once.
  const now = <T>(work: () => T): Promise<T> => {
    try {
      return Promise.resolve(work())
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }
  return {
    users: {
      list: () => now(() => listUsers(db)),
      find: (name) => now(() => findUser(db, name)),
      insert: (user, at) => now(() => insertUser(db, user, at)),
      replaceToken: (name, hash, at) => now(() => replaceUserToken(db, name, hash, at)),
      remove: (name) => now(() => deleteUser(db, name)),
      byTokenHash: (hash) => now(() => userByTokenHash(db, hash)),
      touch: (id, at) => now(() => touchUser(db, id, at)),
      display: (name) => now(() => getUserDisplay(db, name)),
      saveDisplay: (name, change) => now(() => setUserDisplay(db, name, change))
    },
    sessions: {
      insert: (session, at) => now(() => insertUserSession(db, session, at)),
      userByHash: (hash, at) => now(() => userBySessionHash(db, hash, at)),
      remove: (hash) => now(() => deleteUserSession(db, hash)),
      removeExpired: (at) => now(() => deleteExpiredUserSessions(db, at))
    },
    audit: {
      record: (entry, at) => now(() => recordAudit(db, entry, at)),
      list: (query) => now(() => listAudit(db, query))
    }
  }
}
