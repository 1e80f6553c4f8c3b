// The `eventwatch` command line run to its end from a spec (saving a connection, removing it).
import { execFileSync } from 'node:child_process'
import type { RunningSimulator } from '../../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, ROOT, simulatorFlags } from '../../support/cli'
import type { Simulator } from './simulator'

/** Runs the CLI with `args` (and `env` over a clean environment); its stdout. Throws if it fails. */
export const cli = (args: string[], env: NodeJS.ProcessEnv = {}): string =>
  execFileSync(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv(env) }).toString()

/**
 * Saves `sim` (one in this process, or an `eventwatch simulate` process) as the connection `name`
 * of the cache `db`, its secret in the keychain; `extra` flags go to `connections add`.
 */
export function addConnection(name: string, sim: RunningSimulator | Simulator, db: string, extra: string[] = []): string {
  const [flags, secret] = 'hostArgs' in sim ? [sim.hostArgs, sim.clientSecret] : [simulatorFlags(sim), sim.credentials.clientSecret]
  return cli(['connections', 'add', name, ...flags, ...extra, '--db', db], { EVENTWATCH_CLIENT_SECRET: secret })
}
