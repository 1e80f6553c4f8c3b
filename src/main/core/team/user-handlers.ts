// The team server's users through the app API (`eventwatch users`, run by the administrator):
// added, given a new token or removed like any other change, so each is in the audit log.
import type { RequestHandlers } from '../../../shared/contract'
import type { TeamUsers } from './users'

type UserHandlers = Pick<RequestHandlers, 'addUser' | 'rotateUserToken' | 'removeUser'>

export function userHandlers(users: TeamUsers): UserHandlers {
  return {
    addUser: ({ name, role }) => users.add(name, role),
    rotateUserToken: async ({ name }) => ({ token: await users.rotate(name) }),
    removeUser: async ({ name }) => ({ removed: await users.remove(name) })
  }
}
