// The team's requests through the app API: who is asking, the audit log, and the team server's
// users (`eventwatch users`, run by the administrator): added, given a new token or removed like
// any other change, so each is in the audit log.
import type { RequestHandlers } from '../../../shared/contract'
import type { TeamStore } from './team-store'
import type { TeamUsers } from './users'

type TeamHandlers = Pick<RequestHandlers, 'getIdentity' | 'listAudit' | 'addUser' | 'rotateUserToken' | 'removeUser'>

export function teamHandlers(users: TeamUsers, audit: TeamStore['audit']): TeamHandlers {
  return {
    getIdentity: (_args, { actor, team }) => ({ name: actor.name, role: actor.role, team }),
    listAudit: (query) => audit.list(query),
    addUser: ({ name, role }) => users.add(name, role),
    rotateUserToken: async ({ name }) => ({ token: await users.rotate(name) }),
    removeUser: async ({ name }) => ({ removed: await users.remove(name) })
  }
}
