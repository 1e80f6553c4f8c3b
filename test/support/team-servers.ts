// Several real `eventwatch serve` processes on one PostgreSQL database, as the servers tests
// start them (docs/several-servers.md): each on a loopback port with short leases (serve's hidden
// --lease-seconds), asked over HTTP as a browser would; the team's database read and written by
// the test as another program; simulators whose worlds stand still.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { expect } from 'vitest'
import type { Status } from '../../src/shared/domain'
import type { ConnectionPollStatus } from '../../src/shared/poll-status'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { frozenSimulator, type Cleanups } from './app-core'
import { homeEnv } from './cli'
import { startCli, type RunningCli } from './cli-processes'
import { parseExposition, type Parsed } from './exposition'
import { freshDatabase, type TestDatabase } from './postgres-databases'
import { simulatorTarget } from './simulator-connection'
import { tempDirs } from './temp-dirs'

/** The one client secret every simulator answers to, and every server is given. */
export const SECRET = `secret-${randomUUID()}`

const newDir = tempDirs('eventwatch-pg-servers-')

export interface Server {
  label: string
  cli: RunningCli
  origin: string
  token: string
  pid: number
}

/** `eventwatch serve` on `db`, polling every `interval` seconds, with leases of `leaseSeconds`. */
export async function serve(cleanups: Cleanups, label: string, db: string, interval: number, leaseSeconds: number): Promise<Server> {
  const env = { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: SECRET }
  const cli = startCli(['serve', '--port', '0', '--db', db, '--interval', String(interval), '--lease-seconds', String(leaseSeconds)], env)
  cleanups.add(async () => {
    // A server the test froze is woken to be stopped; one it killed is gone already.
    if (cli.child.exitCode === null && cli.child.signalCode === null) process.kill(cli.pid, 'SIGCONT')
    await cli.stop()
  })
  const [, origin, token] = await cli.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/, 120_000)
  return { label, cli, origin: origin!, token: token!, pid: cli.pid }
}

/** A request of the app API, as a page sends it; its error's words thrown, with who answered. */
export async function ask<T>(server: Server, name: string, args: unknown = {}): Promise<T> {
  const response = await fetch(`${server.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args)
  })
  const result = (await response.json()) as { ok: true; value: T } | { ok: false; error: { message: string } }
  if (!result.ok) throw new Error(`${name} on server ${server.label}: ${result.error.message}`)
  return result.value
}

export async function scrape(server: Server): Promise<Parsed> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { Authorization: `Bearer ${server.token}` } })
  expect(response.status).toBe(200)
  return parseExposition(await response.text())
}

export const statusOf = async (server: Server, connectionId: string): Promise<ConnectionPollStatus | undefined> =>
  (await ask<Status>(server, 'getStatus')).connections.find((c) => c.connectionId === connectionId)

/** Asks `read` until it answers something `test` passes. */
export async function eventually<T>(what: string, read: () => Promise<T>, test: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const seen = await read()
    if (test(seen)) return seen
    if (Date.now() > until) throw new Error(`${what}: never within ${timeoutMs} ms; last seen ${JSON.stringify(seen).slice(0, 800)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A lease as the database has it now; `pid`: its holder's process (host:pid:boot-uuid). */
export interface LeaseRow {
  name: string
  holder: string
  fence: number
  live: boolean
  acquiredAt: Date
  pid: number
}

/** The team's database, read and written by the test as another program. */
export class Team {
  constructor(
    readonly database: TestDatabase,
    readonly sql: pg.Client
  ) {}

  static async open(cleanups: Cleanups, sims: Record<string, RunningSimulator>): Promise<Team> {
    const database = await freshDatabase()
    cleanups.add(() => database.drop())
    // Migrated first, and the connections saved, as `connections add` would have.
    const store = await openPgStore(database.url)
    try {
      for (const [id, sim] of Object.entries(sims)) {
        const row = { ...simulatorTarget(sim, { id, name: `Tenant ${id.toUpperCase()}` }), isDemo: false }
        await store.withTransaction((tx) => tx.connections.upsert(row, Date.now()))
      }
    } finally {
      await store.close()
    }
    const sql = new pg.Client({ connectionString: database.url })
    await sql.connect()
    cleanups.add(() => sql.end())
    return new Team(database, sql)
  }

  async leases(): Promise<Map<string, LeaseRow>> {
    const { rows } = await this.sql.query<Omit<LeaseRow, 'pid'>>(
      'SELECT name, holder, fence::int AS fence, expires_at > now() AS live, acquired_at AS "acquiredAt" FROM leases ORDER BY name'
    )
    return new Map(rows.map((row) => [row.name, { ...row, pid: Number(/:(\d+):[^:]+$/.exec(row.holder)?.[1]) }]))
  }

  /** The lease `name` once `test` passes on it. */
  lease(name: string, test: (lease: LeaseRow | undefined) => boolean, timeoutMs?: number): Promise<LeaseRow> {
    return eventually(`the lease ${name}`, async () => (await this.leases()).get(name), test, timeoutMs) as Promise<LeaseRow>
  }
}

/** Simulators whose worlds stand still, all answering to SECRET. */
export async function simulators(cleanups: Cleanups, ...ids: string[]): Promise<Record<string, RunningSimulator>> {
  const sims: Record<string, RunningSimulator> = {}
  for (const id of ids) {
    sims[id] = await frozenSimulator(cleanups, id, {
      credentials: { clientId: `client-${id}`, clientSecret: SECRET, platformId: `platform-${id}`, tenantId: `tenant-${id}` }
    })
  }
  return sims
}

/** Connected, with a poll at `since` or later. */
export const polledSince = (since: number) => (c: ConnectionPollStatus | undefined): boolean =>
  c?.state === 'connected' && c.lastUpdateAt !== null && Date.parse(c.lastUpdateAt) >= since
