// Several `eventwatch serve` processes on one PostgreSQL database, as the tests of issue 26 run
// them (docs/several-servers.md): real child processes with short leases (serve's hidden
// --lease-seconds), asked through their app API and /metrics (serve-requests.ts), and the team's database read by the
// test as another program — its leases, and who wrote what (a trigger logs every write of chosen
// tables with the writer's application_name, "eventwatch <pid>@<host>").
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { frozenSimulator, type Cleanups } from './app-core'
import { homeEnv } from './cli'
import { startCli } from './cli-processes'
import { freshDatabase, type TestDatabase } from './postgres-databases'
import { eventually, type Server } from './serve-requests'
import { simulatorTarget } from './simulator-connection'
import { tempDirs } from './temp-dirs'

// Asking a server, which scripts outside the test runner do too (serve-requests.ts).
export { ask, eventually, polledSince, scrape, statusOf, type Server } from './serve-requests'

export const LEASE_SECONDS = 3
/** A takeover comes once the lease has run out, at the taker's next pass (a third of a lease),
 *  with generous slack for a loaded 2-core machine: a bound from the lease, not a speed test. */
export const TAKEOVER_WITHIN_MS = (LEASE_SECONDS + LEASE_SECONDS / 3) * 1000 + 15_000

/**
 * `eventwatch ARGS` (a `serve`), once it says where it serves; stopped by `cleanups` (woken first
 * if the test froze it). A team server (`--listen`) prints no token: the test gives a user's.
 */
export async function startServer(cleanups: Cleanups, label: string, args: string[], env: NodeJS.ProcessEnv, userToken?: string): Promise<Server> {
  const cli = startCli(args, env)
  cleanups.add(async () => {
    // A server the test froze is woken to be stopped; one it killed is gone already.
    if (cli.child.exitCode === null && cli.child.signalCode === null) process.kill(cli.pid, 'SIGCONT')
    await cli.stop()
  })
  const [, origin, launchToken] = await cli.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)\/(?:\?token=(\S+))?/, 120_000)
  return { label, cli, origin: origin!, token: userToken ?? launchToken!, pid: cli.pid }
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

/** The team's database as the test reads it, on a connection of its own. */
export class TeamDatabase {
  constructor(readonly sql: pg.Client) {}

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

  /** From now on, every row `tables` gain, change or lose is logged with the application_name of
   *  its writer: a rolled-back unit leaves no row in the log either. */
  async logWrites(tables: readonly string[]): Promise<void> {
    await this.sql.query(`CREATE TABLE write_log (tbl text, app text, at timestamptz NOT NULL DEFAULT clock_timestamp());
      CREATE FUNCTION log_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO write_log (tbl, app) VALUES (TG_TABLE_NAME, current_setting('application_name')); RETURN NULL; END $$;
      ${tables.map((t) => `CREATE TRIGGER ${t}_logged AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION log_write();`).join('\n')}`)
  }

  /** The tables (of those logged) that the server of `pid` wrote, since `since` if given. */
  async tablesWrittenBy(pid: number, since: Date | null = null): Promise<string[]> {
    const { rows } = await this.sql.query<{ tbl: string }>(
      "SELECT DISTINCT tbl FROM write_log WHERE app LIKE 'eventwatch ' || $1 || '@%' AND ($2::timestamptz IS NULL OR at > $2) ORDER BY tbl",
      [pid, since]
    )
    return rows.map((r) => r.tbl)
  }
}

/** The one client secret the simulators of `simulators` answer to, and `serveOn`'s servers are given. */
export const SECRET = `secret-${randomUUID()}`

const newDir = tempDirs('eventwatch-pg-servers-')

/** `eventwatch serve` on `db` on a loopback port, polling every `interval` seconds, with leases of
 *  `leaseSeconds` (LEASE_SECONDS unless said). */
export const serveOn = (cleanups: Cleanups, label: string, db: string, interval: number, leaseSeconds = LEASE_SECONDS): Promise<Server> =>
  startServer(
    cleanups,
    label,
    ['serve', '--port', '0', '--db', db, '--interval', String(interval), '--lease-seconds', String(leaseSeconds)],
    { ...homeEnv(newDir()), EVENTWATCH_CLIENT_SECRET: SECRET }
  )

/** A fresh team database, read and written by the test as another program. */
export class Team extends TeamDatabase {
  constructor(
    readonly database: TestDatabase,
    sql: pg.Client
  ) {
    super(sql)
  }

  /** Migrated, with a connection saved for each simulator (id x: "Tenant X"), as `connections add` would. */
  static async open(cleanups: Cleanups, sims: Record<string, RunningSimulator>): Promise<Team> {
    const database = await freshDatabase()
    cleanups.add(() => database.drop())
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
