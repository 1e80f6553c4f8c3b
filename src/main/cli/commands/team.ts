// `eventwatch team`: make this desk a client of a team server (issue 17). The desktop app then
// polls nothing of its own: it shows the server's sessions and alerts, and acts as the token's
// user. The same as Settings → Team server (core/app/team-membership.ts).
import type { Command } from 'commander'
import { plainText } from '../../../shared/plain-text'
import { joinTeamServer, leaveTeamServer, TeamJoinError, teamServerView } from '../../core/app/team-membership'
import { osKeychain } from '../../core/secrets/keychain'
import { teamConfigFile, TeamConfigError } from '../../core/team/team-config'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'
import { promptSecret } from '../prompt'

export const TEAM_TOKEN_ENV = 'EVENTWATCH_TEAM_TOKEN'

/** Errors of the team file or of joining are the user's to fix: one line, exit code 2. */
async function said<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof TeamJoinError || error instanceof TeamConfigError) throw new CliError(error.message)
    throw error
  }
}

export function registerTeam(program: Command): void {
  const team = withExamples(program.command('team').description('use a team server instead of polling from this desk'), ['eventwatch team show'])
  const command = (nameAndArgs: string, description: string, example: string): Command =>
    withExamples(team.command(nameAndArgs).description(description), [example])
  const place = () => ({ teamFile: teamConfigFile(), secrets: osKeychain() })

  command(
    'join <url>',
    `connect this desk to the team server at URL (the token from ${TEAM_TOKEN_ENV} or asked for)`,
    'eventwatch team join https://eventwatch.internal:8443 --pin 3F:9A:…'
  )
    .option('--pin <sha256>', "trust the server's certificate by this SHA-256 fingerprint (a self-signed certificate)")
    .action((url: string, opts: { pin?: string }) =>
      said(async () => {
        const token = process.env[TEAM_TOKEN_ENV]?.trim() || (await promptSecret(`Access token for ${url}: `)).trim()
        const identity = await joinTeamServer({ url, token, pinnedSha256: opts.pin ?? null }, place())
        const joined = teamServerView(place().teamFile)
        process.stdout.write(`Joined ${plainText(joined?.url ?? url)} as ${plainText(identity.name)} (${plainText(identity.role)}). Restart Eventwatch to use it.\n`)
      })
    )

  jsonOption(command('show', 'say which team server this desk uses, if any', 'eventwatch team show --json'), 'the team server (null when there is none)')
    .action((opts: { json?: boolean }) =>
      said(async () => {
        const config = teamServerView(teamConfigFile())
        if (opts.json) return printJson(config)
        process.stdout.write(
          config
            ? `Team server ${plainText(config.url)}${config.user ? ` as ${plainText(config.user)}` : ''}${config.pinnedSha256 ? `, certificate pinned (SHA-256 ${config.pinnedSha256})` : ''}\n`
            : 'No team server: this desk polls its own connections.\n'
        )
      })
    )

  command('leave', 'stop using the team server: the desk polls its own connections again (after a restart)', 'eventwatch team leave')
    .action(() =>
      said(async () => {
        const left = await leaveTeamServer(place())
        process.stdout.write(left ? 'Left the team server. Restart Eventwatch to poll from this desk again.\n' : 'This desk had no team server.\n')
      })
    )
}
