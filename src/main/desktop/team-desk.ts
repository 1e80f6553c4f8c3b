// A desk that is a team server's client: who it is on that server (a teammate's acknowledgement
// is announced by name, its own is not; a viewer is offered no buttons it may not press), and a
// fresh window whenever the server comes back.
import type { TeamClient } from '../core/app/team-client'
import { mayRequest } from '../../shared/permissions'
import type { Identity } from '../../shared/team'

export interface TeamDesk {
  /** This desk's user on the server, once it said so. */
  self(): string | null
  /** Whether this desk's user may acknowledge and snooze alerts, by the roles the server applies;
   *  yes until the server said who it is (the server decides anyway). */
  mayAct(): boolean
}

export function followTeam(team: TeamClient, reloadWindow: () => void): TeamDesk {
  let identity: Identity | null = null
  const learn = (): void => {
    void team.dispatch('getIdentity', {}).then((result) => {
      if (result.ok) identity = result.value as Identity
    })
  }
  learn()
  team.onReconnected(() => {
    // The server may have restarted or moved on while away: the window reads everything afresh.
    reloadWindow()
    learn()
  })
  return {
    self: () => identity?.name ?? null,
    mayAct: () => !identity || mayRequest(identity.role, 'acknowledgeAlert', { id: 1 }).allowed
  }
}
