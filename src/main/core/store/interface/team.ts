// The team's tables as the Store holds them: users (and the display each chose for themselves),
// their browser sessions and the audit log. The
// shape is TeamStore's (core/team/team-store.ts), which the team server, its gate and the CLI use
// today; once callers take a Store, TeamStore is this interface (team ranks above store).
import type { PersonalDisplay } from '../../../../shared/settings'
import type { AuditEntry, UserRole, UserView } from '../../../../shared/team'
import type { AuditRecord } from '../audit'
import type { UserRecord } from '../users'

export type { AuditRecord, UserRecord }

export interface UserReads {
  list(): Promise<UserView[]>
  find(name: string): Promise<UserView | null>
  byTokenHash(tokenHash: string): Promise<UserRecord | null>
  /** The display fields the user chose for themselves (none: the server's hold). */
  display(name: string): Promise<Partial<PersonalDisplay>>
}

export interface UserStore extends UserReads {
  insert(user: { name: string; role: UserRole; tokenHash: string }, now: number): Promise<UserView>
  /** A new token hash; every session of the user ends with the old one. */
  replaceToken(name: string, tokenHash: string, now: number): Promise<boolean>
  remove(name: string): Promise<boolean>
  touch(id: number, now: number): Promise<void>
  /** Adds to what the user chose; null when there is no such user. */
  saveDisplay(name: string, change: Partial<PersonalDisplay>): Promise<Partial<PersonalDisplay> | null>
}

export interface SignInReads {
  userByHash(idHash: string, now: number): Promise<UserRecord | null>
}

export interface SignInStore extends SignInReads {
  insert(session: { idHash: string; userId: number; expiresAt: number }, now: number): Promise<void>
  remove(idHash: string): Promise<void>
  removeExpired(now: number): Promise<number>
}

export interface AuditReads {
  /** Newest first: at most `limit`, before the entry `before` (an id) for the next page. */
  list(query: { limit?: number | undefined; before?: number | undefined }): Promise<AuditEntry[]>
}

export interface AuditStore extends AuditReads {
  record(entry: AuditRecord, now: number): Promise<void>
}

export interface TeamTables {
  users: UserStore
  sessions: SignInStore
  audit: AuditStore
}

export interface TeamReads {
  users: UserReads
  sessions: SignInReads
  audit: AuditReads
}
