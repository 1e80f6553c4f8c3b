// Joining and leaving a team server, for the CLI (`eventwatch team`) and Settings → Team server
// alike: the server is asked who the token belongs to before anything is saved, so a wrong
// address, certificate or token is said at once; the token goes to the OS keychain, the address
// and pin to the team file. Takes effect at the next start.
import type { Identity, TeamServerView } from '../../../shared/team'
import { isFingerprint, normaliseFingerprint } from '../net/pinned-agent'
import type { SecretStore } from '../secrets/keychain'
import { readTeamConfig, removeTeamConfig, teamTokenAccount, writeTeamConfig } from '../team/team-config'
import { connectTeamServer } from './team-client'

export class TeamJoinError extends Error {}

/** "AB:CD:…" with colons, as openssl prints it. */
const colonFingerprint = (pin: string): string => normaliseFingerprint(pin).replace(/(..)(?!$)/g, '$1:')

export function teamServerView(teamFile: string): TeamServerView | null {
  const config = readTeamConfig(teamFile)
  return config ? { url: config.url, pinnedSha256: config.pinnedSha256, user: config.user } : null
}

export async function joinTeamServer(
  request: { url: string; token: string; pinnedSha256?: string | null | undefined },
  place: { teamFile: string; secrets: SecretStore }
): Promise<Identity> {
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    throw new TeamJoinError(`"${request.url}" is not an address, e.g. https://noc.example.com:8443`)
  }
  if (!/^https?:$/.test(url.protocol)) throw new TeamJoinError(`"${request.url}" is not an http(s) address.`)
  const pin = request.pinnedSha256?.trim() ? request.pinnedSha256.trim() : null
  if (pin !== null && !isFingerprint(pin)) throw new TeamJoinError('the pin is a SHA-256 fingerprint: 64 hex digits, colons allowed.')
  const token = request.token.trim()
  if (!token) throw new TeamJoinError('no token given.')

  const client = connectTeamServer({ url: url.origin, token, pinnedSha256: pin }, { requestTimeoutMs: 15_000 })
  let identity: Identity
  try {
    const answer = await client.dispatch('getIdentity', {})
    if (!answer.ok) throw new TeamJoinError(answer.error.message)
    identity = answer.value as Identity
  } finally {
    await client.close()
  }
  await place.secrets.save(teamTokenAccount(url.origin), token)
  writeTeamConfig(place.teamFile, { url: url.origin, pinnedSha256: pin === null ? null : colonFingerprint(pin), user: identity.name })
  return identity
}

/** Forgets the team server; answers whether there was one. */
export async function leaveTeamServer(place: { teamFile: string; secrets: SecretStore }): Promise<boolean> {
  const config = readTeamConfig(place.teamFile)
  if (config) await place.secrets.remove(teamTokenAccount(config.url)).catch(() => false)
  return removeTeamConfig(place.teamFile)
}
