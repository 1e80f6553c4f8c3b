// The requests about this desk itself (Settings → Team server): answered here, never relayed to a
// team server, so a desk that joined one can also leave it from its own window.
import type { RequestHandlers } from '../../../shared/contract'
import type { DESK_REQUESTS } from '../../../shared/team'
import type { SecretStore } from '../secrets/keychain'
import { joinTeamServer, leaveTeamServer, teamServerView } from './team-membership'

export type DeskHandlers = Pick<RequestHandlers, (typeof DESK_REQUESTS)[number]>

export function deskHandlers(place: { teamFile: string; secrets: SecretStore }): DeskHandlers {
  return {
    getTeamServer: () => teamServerView(place.teamFile),
    joinTeamServer: (request) => joinTeamServer(request, place),
    leaveTeamServer: async () => ({ left: await leaveTeamServer(place) })
  }
}
