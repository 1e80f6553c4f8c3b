// The team's own tables behind one asynchronous interface: users (and the display each chose for
// themselves), their browser sessions and the audit log. SQLite answers today (store/users.ts,
// store/user-settings.ts, store/audit.ts, synchronously underneath); the PostgreSQL store of
// several servers (docs/scaling-plan.md) implements the same interface, so the team server, its
// gate and the CLI do not change when the store does.
import type { AuditEntry, UserRole, UserView } from '../../../shared/team'
import type { AuditRecord } from '../store/audit'
import type { Store } from '../store/interface/store'
import type { TeamTables } from '../store/interface/team'
import type { UserRecord } from '../store/users'

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

/** The team's tables of the core's Store: reads as committed, each write one unit of work of
 *  its own (the team server's gate, its users and the dispatcher's audit rows). */
export function teamStoreOn(store: Store): TeamStore {
  const read = store.read.team
  const unit = <T>(work: (team: TeamTables) => Promise<T>): Promise<T> => store.withTransaction((tx) => work(tx.team))
  return {
    users: {
      list: () => read.users.list(),
      find: (name) => read.users.find(name),
      byTokenHash: (tokenHash) => read.users.byTokenHash(tokenHash),
      insert: (user, now) => unit((team) => team.users.insert(user, now)),
      replaceToken: (name, tokenHash, now) => unit((team) => team.users.replaceToken(name, tokenHash, now)),
      remove: (name) => unit((team) => team.users.remove(name)),
      touch: (id, now) => unit((team) => team.users.touch(id, now))
    },
    sessions: {
      userByHash: (idHash, now) => read.sessions.userByHash(idHash, now),
      insert: (session, now) => unit((team) => team.sessions.insert(session, now)),
      remove: (idHash) => unit((team) => team.sessions.remove(idHash)),
      removeExpired: (now) => unit((team) => team.sessions.removeExpired(now))
    },
    audit: {
      list: (query) => read.audit.list(query),
      record: (entry, now) => unit((team) => team.audit.record(entry, now))
    }
  }
}
