// The team part's servers: real `eventwatch serve` processes (the bundled CLI, as an install runs
// it) on one PostgreSQL database, each with a home folder of its own, started as the tests start
// them, asked as they ask them (test/support/serve-requests.ts), at the default lease unless told.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { homeEnv } from '../../test/support/cli'
import { startCli } from '../../test/support/cli-processes'
import type { Server } from '../../test/support/serve-requests'

export interface ServeProcess extends Server {
  /** Stops it (SIGTERM, or SIGKILL at once with `now`) and removes its home folder. */
  stop(now?: boolean): Promise<void>
}

/** `eventwatch serve` on `db` with the default cadences and, unless `leaseSeconds`, the default lease. */
export async function serve(label: string, db: string, clientSecret: string, leaseSeconds?: number): Promise<ServeProcess> {
  const home = mkdtempSync(join(tmpdir(), 'eventwatch-bench-serve-'))
  const lease = leaseSeconds === undefined ? [] : ['--lease-seconds', String(leaseSeconds)]
  const cli = startCli(['serve', '--port', '0', '--db', db, ...lease], { ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: clientSecret })
  const stop = async (now = false): Promise<void> => {
    if (now && cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL')
    await cli.stop()
    rmSync(home, { recursive: true, force: true })
  }
  try {
    const [, origin, token] = await cli.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/, 120_000)
    return { label, cli, origin: origin!, token: token!, pid: cli.pid, stop }
  } catch (error) {
    await stop(true)
    throw error
  }
}
