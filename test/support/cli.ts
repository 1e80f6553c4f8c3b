// The `eventwatch` command line (bin/eventwatch.js) as the tests run it: a child process of this
// Node, in the project's folder, with an environment of its own.
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const CLI_BIN = join(ROOT, 'bin', 'eventwatch.js')

/**
 * The environment for a CLI child: this process's, with no EVENTWATCH_DB unless `env` sets one,
 * then `env`; never NODE_OPTIONS (the test runner's own loader hooks are not the CLI's business).
 */
export function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, EVENTWATCH_DB: '', ...env }
  delete merged.NODE_OPTIONS
  return merged
}

/** A home folder of the child's own: HOME, and the config folder (the default cache) inside it. */
export const homeEnv = (home: string): NodeJS.ProcessEnv => ({ HOME: home, XDG_CONFIG_HOME: join(home, 'config') })

/**
 * The flags of an ad-hoc connection to a simulator (its secret goes in the environment); with
 * `origin`, both its URLs point there instead.
 */
export function simulatorFlags(
  sim: { baseUrl: string; authUrl: string; credentials: { platformId: string; tenantId: string; clientId: string } },
  origin?: string
): string[] {
  return [
    '--base-url', origin ?? sim.baseUrl, '--auth-url', origin ?? sim.authUrl,
    '--platform-id', sim.credentials.platformId, '--tenant-id', sim.credentials.tenantId,
    '--client-id', sim.credentials.clientId
  ]
}
