// The team's tables of a Tx (users, their sign-ins, the audit log), on one SQLite connection; also
// through the core's Store, TeamStore's (core/team/team-store.ts).
import { listAudit, recordAudit } from '../audit'
import type { Db } from '../db'
import type { TeamTables } from '../interface/team'
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
  userByTokenHash
} from '../users'
import { getUserDisplay, setUserDisplay } from '../user-settings'
import { answerNow, type Runner, type Runners } from './runners'

export function teamTables(db: Db, { read, write }: Runners): TeamTables {
  return {
    users: {
      list: () => read(() => listUsers(db)),
      find: (name) => read(() => findUser(db, name)),
      byTokenHash: (hash) => read(() => userByTokenHash(db, hash)),
      insert: (user, now) => write(() => insertUser(db, user, now)),
      replaceToken: (name, hash, now) => write(() => replaceUserToken(db, name, hash, now)),
      remove: (name) => write(() => deleteUser(db, name)),
      touch: (id, now) => write(() => touchUser(db, id, now)),
      display: (name) => read(() => getUserDisplay(db, name)),
      saveDisplay: (name, change) => write(() => setUserDisplay(db, name, change))
    },
    sessions: {
      userByHash: (hash, now) => read(() => userBySessionHash(db, hash, now)),
      insert: (session, now) => write(() => insertUserSession(db, session, now)),
      remove: (hash) => write(() => deleteUserSession(db, hash)),
      removeExpired: (now) => write(() => deleteExpiredUserSessions(db, now))
    },
    audit: {
      list: (query) => read(() => listAudit(db, query)),
      record: (entry, now) => write(() => recordAudit(db, entry, now))
    }
  }
}

/** The team's tables on a connection of their own, outside any Store: each call one statement or
 *  one transaction of the synchronous driver, answered at once (another program's view in tests). */
export function teamTablesOnDb(db: Db): TeamTables {
  const now: Runner = (call) => answerNow(call, db.name)
  return teamTables(db, { read: now, write: now })
}
