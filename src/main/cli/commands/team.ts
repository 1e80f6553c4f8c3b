// `eventwatch team`: make this desk a client of a team server (issue 17). The desktop app then
// polls nothing of its own: it shows the server's sessions and alerts, and acts as the token's
// user. The token goes to the OS keychain; the address (and a pinned certificate) to a small file.
import type { Command } from 'commander'
import type { Identity } from '../../../shared/team'
import { connectTeamServer } from '../../core/app/team-client'
import { osKeychain } from '../../core/secrets/keychain'
import { isFingerprint, normaliseFingerprint } from '../../core/net/pinned-agent'
import { readTeamConfig, removeTeamConfig, TEAM_TOKEN_ACCOUNT, teamConfigFile, TeamConfigError, writeTeamConfig } from '../../core/team/team-config'
import { CliError } from '../errors'
import { promptSecret } from '../prompt'

export const TEAM_TOKEN_ENV = 'EVENTWATCH_TEAM_TOKEN'

/** Asks the server who the token is, once: a wrong address, pin or token is said now, not at the next start. */
async function whoAmI(url: string, token: string, pin: string | null): Promise<Identity> {
  const client = connectTeamServer({ url, token, pinnedSha256: pin }, { requestTimeoutMs: 15_000 })
  try {
    const answer = await client.dispatch('getIdentity', {})
    if (!answer.ok) throw new CliError(answer.error.message)
    return answer.value as Identity
  } finally {
    await client.close()
  }
}

export function registerTeam(program: Command): void {
  const team = program.command('team').description('use a team server instead of polling from this desk')

  team
    .command('join <url>')
    .description(`connect this desk to the team server at URL (the token from ${TEAM_TOKEN_ENV} or asked for)`)
    .option('--pin <sha256>', "trust the server's certificate by this SHA-256 fingerprint (a self-signed certificate)")
    .action(async (url: string, opts: { pin?: string }) => {
      let origin: string
      try {
        origin = new URL(url).origin
        if (!/^https?:$/.test(new URL(url).protocol)) throw new Error('scheme')
      } catch {
        throw new CliError(`"${url}" is not an http(s) address, e.g. https://noc.example.com:8443`)
      }
      if (opts.pin !== undefined && !isFingerprint(opts.pin)) throw new CliError('--pin takes a SHA-256 fingerprint: 64 hex digits, colons allowed.')
      const pin = opts.pin ? normaliseFingerprint(opts.pin).replace(/(..)(?!$)/g, '$1:') : null
      const token = process.env[TEAM_TOKEN_ENV]?.trim() || (await promptSecret(`Access token for ${origin}: `)).trim()
      if (!token) throw new CliError('no token given.')
      const identity = await whoAmI(origin, token, pin)
      await osKeychain().save(TEAM_TOKEN_ACCOUNT, token)
      writeTeamConfig(teamConfigFile(), { url: origin, pinnedSha256: pin, user: identity.name })
      process.stdout.write(`Joined ${origin} as ${identity.name} (${identity.role}). Restart Eventwatch to use it.\n`)
    })

  team
    .command('show')
    .description('say which team server this desk uses, if any')
    .action(() => {
      try {
        const config = readTeamConfig(teamConfigFile())
        process.stdout.write(
          config
            ? `Team server ${config.url}${config.user ? ` as ${config.user}` : ''}${config.pinnedSha256 ? `, certificate pinned (SHA-256 ${config.pinnedSha256})` : ''}\n`
            : 'No team server: this desk polls its own connections.\n'
        )
      } catch (error) {
        if (error instanceof TeamConfigError) throw new CliError(error.message)
        throw error
      }
    })

  team
    .command('leave')
    .description('stop using the team server: the desk polls its own connections again (after a restart)')
    .action(async () => {
      const removed = removeTeamConfig(teamConfigFile())
      await osKeychain()
        .remove(TEAM_TOKEN_ACCOUNT)
        .catch(() => false)
      process.stdout.write(removed ? 'Left the team server. Restart Eventwatch to poll from this desk again.\n' : 'This desk had no team server.\n')
    })
}
