// The team's own tables behind one asynchronous interface: users (and the display each chose for
// themselves), their browser sessions and the audit log. SQLite answers today (store/users.ts,
// store/user-settings.ts, store/audit.ts, synchronously underneath); the PostgreSQL store of
// several servers (docs/scaling-plan.md) implements the same interface, so the team server, its
// gate and the CLI do not change when the store does.
import type { AuditEntry, UserRole, UserView } from '../../../shared/team'
import type { AuditRecord } from '../store/audit'
import type { Db } from '../store/db'
import { teamTables } from '../store/sqlite/team-tables'
import { answerNow, type Runner } from '../store/sqlite/runners'
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

/** The team's tables in the cache file itself: the Store's team tables (store/sqlite/), each call
 *  one statement or one transaction of the synchronous driver, answered at once. */
export function sqliteTeamStore(db: Db): TeamStore {
  const now: Runner = (call) => answerNow(call, db.name)
  return teamTables(db, { read: now, write: now })
}
