// A desk that is a team server's client: who it is on that server (a teammate's acknowledgement
// is announced by name, its own is not), and a fresh window whenever the server comes back.
import type { TeamClient } from '../core/app/team-client'
import type { Identity } from '../../shared/team'

export interface TeamDesk {
  /** This desk's user on the server, once it said so. */
  self(): string | null
}

export function followTeam(team: TeamClient, reloadWindow: () => void): TeamDesk {
  let self: string | null = null
  const learn = (): void => {
    void team.dispatch('getIdentity', {}).then((result) => {
      if (result.ok) self = (result.value as Identity).name
    })
  }
  learn()
  team.onReconnected(() => {
    // The server may have restarted or moved on while away: the window reads everything afresh.
    reloadWindow()
    learn()
  })
  return { self: () => self }
}
