// The core a desk runs: its own (polling its connections into its own cache), or, once it joined
// a team server (`eventwatch team join`), that server's, through a team client.
import { osKeychain, type SecretStore } from '../secrets/keychain'
import { openDeskOwnSettings } from '../store/desk-own-settings'
import { readTeamConfig, teamTokenAccount } from '../team/team-config'
import { startAppCore } from './start'
import { connectTeamServer, type TeamClient } from './team-client'
import { deskHandlers } from './desk-handlers'
import { withOwnDesktopSettings } from './desk-settings'
import type { AppCore, AppCoreOptions } from './types'

export interface DeskCore {
  core: AppCore
  /** The team client when the desk uses a team server; null when it polls on its own. */
  team: TeamClient | null
}

export async function startDeskCore(options: AppCoreOptions & { teamFile: string; secrets?: SecretStore }): Promise<DeskCore> {
  const config = readTeamConfig(options.teamFile)
  if (!config) return { core: await startAppCore(options), team: null }
  const token = await (options.secrets ?? osKeychain()).read(teamTokenAccount(config.url))
  if (!token) {
    throw new Error(
      `This desk is set to use the team server ${config.url}, but its token is not in the keychain: ` +
        `run "eventwatch team join ${config.url}" again, or "eventwatch team leave".`
    )
  }
  const secrets = options.secrets ?? osKeychain()
  // This desk's start at login, where it was before it joined (store/desk-own-settings.ts).
  const own = openDeskOwnSettings(options.db, { nativeBinding: options.nativeBinding })
  const team = connectTeamServer(
    { url: config.url, token, pinnedSha256: config.pinnedSha256 },
    { desk: deskHandlers({ teamFile: options.teamFile, secrets }) }
  )
  return { core: withOwnDesktopSettings(team, own), team }
}
