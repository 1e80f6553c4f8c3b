// The team part's servers: real `eventwatch serve` processes (the bundled CLI, as an install runs
// it) on one PostgreSQL database, started as test/integration/store-postgres-servers.test.ts
// starts them, and the bench's way of asking them things over their HTTP API.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Status } from '../../src/shared/domain'
import type { ConnectionPollStatus } from '../../src/shared/poll-status'
import { homeEnv } from '../../test/support/cli'
import { startCli, type RunningCli } from '../../test/support/cli-processes'
import { ask } from '../../test/support/serve-api'

export interface TeamServer {
  label: string
  cli: RunningCli
  origin: string
  token: string
  pid: number
  /** Stops it (SIGTERM, or SIGKILL at once with `now`) and removes its home folder. */
  stop(now?: boolean): Promise<void>
}

/** `eventwatch serve` on `db` with the default cadences and, unless `leaseSeconds`, the default lease. */
export async function serve(label: string, db: string, clientSecret: string, leaseSeconds?: number): Promise<TeamServer> {
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

export const statusOf = async (server: TeamServer, connectionId: string): Promise<ConnectionPollStatus | undefined> =>
  (await ask<Status>(server, 'getStatus')).connections.find((c) => c.connectionId === connectionId)

/** A gauge or counter of the server's `/metrics` (no labels), or undefined. */
export async function metric(server: TeamServer, name: string): Promise<number | undefined> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { Authorization: `Bearer ${server.token}` } })
  const line = (await response.text()).split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

/** Asks `read` every `everyMs` until `test` passes on what it answers; rejects after `timeoutMs`. */
export async function eventually<T>(what: string, read: () => Promise<T>, test: (value: T) => boolean, timeoutMs: number, everyMs = 200): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const seen = await read()
    if (test(seen)) return seen
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs / 1000} s; last seen ${JSON.stringify(seen).slice(0, 400)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
