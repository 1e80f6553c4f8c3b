// Which team server this desk is a client of: its address and optional pinned certificate in a
// small JSON file beside the cache; the operator token in the OS keychain only.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { APP_DIR_NAME, appDataDir } from '../paths'

/** The keychain account of this desk's token for the team server at `url`: one per server. */
export const teamTokenAccount = (url: string): string => `team-server:${new URL(url).origin}`

export const TeamConfigSchema = z
  .object({
    url: z
      .string()
      .url()
      .refine((u) => /^https?:$/.test(new URL(u).protocol), 'an http(s) address'),
    pinnedSha256: z.string().regex(/^([0-9A-Fa-f]{2}:?){32}$/, 'a SHA-256 fingerprint (64 hex digits)').nullable(),
    /** Who the token said it was when the desk joined, for `team show`. */
    user: z.string().max(64).nullable().default(null)
  })
  .strict()
export type TeamConfig = z.infer<typeof TeamConfigSchema>

export class TeamConfigError extends Error {}

export function teamConfigFile(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return env['EVENTWATCH_TEAM_FILE'] || join(appDataDir(env, platform), APP_DIR_NAME, 'team-server.json')
}

/** The saved team server, or null when this desk is on its own. */
export function readTeamConfig(file: string): TeamConfig | null {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new TeamConfigError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new TeamConfigError(`${file} is not JSON: fix it, or run eventwatch team leave`)
  }
  const config = TeamConfigSchema.safeParse(parsed)
  if (!config.success) {
    const issue = config.error.issues[0]
    throw new TeamConfigError(`${file}: ${issue?.path.join('.') || 'its content'}: ${issue?.message ?? 'invalid'}`)
  }
  return config.data
}

export function writeTeamConfig(file: string, config: TeamConfig): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(TeamConfigSchema.parse(config), null, 2)}\n`, { mode: 0o600 })
}

export function removeTeamConfig(file: string): boolean {
  try {
    rmSync(file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
