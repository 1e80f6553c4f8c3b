// The `eventwatch` command line run to its end from a spec (saving a connection, removing it).
import { execFileSync } from 'node:child_process'
import type { RunningSimulator } from '../../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, ROOT, simulatorFlags } from '../../support/cli'

/** Runs the CLI with `args` (and `env` over a clean environment); its stdout. Throws if it fails. */
export const cli = (args: string[], env: NodeJS.ProcessEnv = {}): string =>
  execFileSync(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv(env) }).toString()

/** Saves `sim` as the connection `name` of the cache `db`, its secret in the keychain. */
export const addConnection = (name: string, sim: RunningSimulator, db: string): string =>
  cli(['connections', 'add', name, ...simulatorFlags(sim), '--db', db], { EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
