// A server on a team's PostgreSQL database (docs/scaling-plan.md section 2) beside another that
// fell silent: a core polling real simulators over loopback, with short leases, and a "ghost"
// server written into the database as rows only (its lease of one connection, its heartbeat, the
// status row and the open run it left). The core polls what its lease gives it, shows the ghost's
// connection from the ghost's rows while its lease lives, "waiting for a server to take it over"
// once the lease ran out (and nobody may take it yet), then takes it over: the ghost's open run
// marked stopped, the takeover counted, the connection polled.
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import type { AlertsPage } from '../../src/shared/alerts'
import type { Status } from '../../src/shared/domain'
import type { MetricFamily } from '../../src/main/core/metrics/metrics'
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import { connectionLease } from '../../src/main/core/store/interface/leases'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { Cleanups, frozenSimulator, startCore, value, waitForStatus } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'
import { simulatorTarget } from '../support/simulator-connection'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

const GHOST = 'ghost-host:4242:00000000-0000-0000-0000-000000000000'
const SHORT_LEASES = { lengthMs: 3_000, renewEveryMs: 1_000 }

/** Asks `read` until it answers something `test` passes. */
async function eventually<T>(read: () => Promise<T>, test: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const seen = await read()
    if (test(seen)) return seen
    if (Date.now() > until) throw new Error(`never passed: ${JSON.stringify(seen).slice(0, 600)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const connectionOf = (status: Status, id: string) => status.connections.find((c) => c.connectionId === id)

function sample(families: MetricFamily[], name: string, labels: Record<string, string>): number | undefined {
  const family = families.find((f) => f.name === name)
  return family?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value
}

describe('a server beside one that fell silent', () => {
  it(
    'shows its connection from its rows, then as waiting for a server, then takes it over',
    async () => {
      const database = await freshDatabase()
      cleanups.add(() => database.drop())
      const sims = { x: await frozenSimulator(cleanups, 'x'), y: await frozenSimulator(cleanups, 'y') }
      const secrets: SecretStore = {
        read: async (account) => (account === 'x' || account === 'y' ? sims[account].credentials.clientSecret : null),
        save: async () => undefined,
        remove: async () => false
      }
      const seed = await openPgStore(database.url)
      cleanups.add(() => seed.close())
      for (const [id, sim] of Object.entries(sims)) {
        await seed.withTransaction((tx) => tx.connections.upsert({ ...simulatorTarget(sim, { id, name: `Tenant ${id.toUpperCase()}` }), isDemo: false }, Date.now()))
      }
      // The ghost: it holds X (a long lease), polled it a moment ago, left a run open, and its
      // heartbeat says it is alive, so the core's fair share is one connection of the two.
      const sql = new pg.Client({ connectionString: database.url })
      await sql.connect()
      cleanups.add(() => sql.end())
      await seed.leases.acquire(connectionLease('x'), GHOST, 600_000)
      await sql.query("INSERT INTO lease_holders (holder, seen_until) VALUES ($1, now() + interval '10 minutes')", [GHOST])
      const ghostPolledAt = Date.now() - 3_000
      await seed.withTransaction((tx) => tx.coreState.savePollerStatus('x', { state: 'ok', lastUpdateAt: ghostPolledAt, lastError: null, offlineSince: null }, Date.now()))
      const leftOpen = await seed.withTransaction((tx) => tx.runs.start('x', 'discovery', Date.now() - 5_000))

      const core: AppCore = await startCore(cleanups, { db: database.url, secrets, leaseTiming: SHORT_LEASES })
      // It takes the one nobody holds, Y, and polls it.
      const y = await eventually(() => seed.leases.get(connectionLease('y')), (lease) => lease !== null && lease.holder !== GHOST)
      const holder = y!.holder
      await waitForStatus(core, (s) => connectionOf(s, 'y')?.state === 'connected', 20_000)
      // X as the ghost's row says it: polled 3 s ago, connected.
      const held = connectionOf(await value<Status>(core, 'getStatus'), 'x')
      expect(held).toMatchObject({ state: 'connected', lastUpdateAt: new Date(ghostPolledAt).toISOString() })
      expect(await seed.leases.get(connectionLease('x'))).toMatchObject({ holder: GHOST, fence: 1 })

      // The ghost's lease runs out; its heartbeat lingers, so the core's share stays one: nobody
      // may take X, and the core says so rather than show the ghost's last row as live.
      await sql.query("UPDATE leases SET expires_at = now() WHERE name = 'connection:x'")
      const waiting = await waitForStatus(core, (s) => connectionOf(s, 'x')?.state === 'waiting', 10_000)
      expect(connectionOf(waiting, 'x')).toMatchObject({ reason: 'waiting for a server to take it over', current: false })
      const situation = await eventually(
        () => value<AlertsPage>(core, 'listAlerts', { limit: 10 }).then((page) => page.situation.headline),
        (headline) => headline.includes('waiting for a server to take over')
      )
      expect(situation).toMatch(/Tenant X/)
      expect(sample(await core.observe!.metrics(), 'eventwatch_connection_lease', { connection_id: 'x' })).toBe(0)

      // The ghost is gone for good: the share grows to both, and the core takes X over.
      const gone = Date.now()
      await sql.query('DELETE FROM lease_holders WHERE holder = $1', [GHOST])
      const x = await eventually(() => seed.leases.get(connectionLease('x')), (lease) => lease?.holder === holder)
      expect(x!.fence).toBe(2)
      const run = await eventually(
        () => seed.read.runs.list('x', 50).then((runs) => runs.find((r) => r.id === leftOpen)),
        (r) => r?.outcome === 'stopped'
      )
      expect(run!.error).toBe(`its server stopped or stalled before finishing it; ${holder} took connection:x over (fence 1 → 2)`)
      expect(run!.finishedAt).toBeGreaterThanOrEqual(gone)
      // Polled by the core now: a success after the takeover.
      const polled = await waitForStatus(core, (s) => {
        const at = connectionOf(s, 'x')?.lastUpdateAt
        return connectionOf(s, 'x')?.state === 'connected' && at !== undefined && at !== null && Date.parse(at) >= gone
      }, 20_000)
      expect(polled.summary.state).toBe('connected')
      const metrics = await core.observe!.metrics()
      expect(sample(metrics, 'eventwatch_lease_takeovers_total', { lease: 'connection:x' })).toBe(1)
      expect(sample(metrics, 'eventwatch_connection_lease_held_here', { connection_id: 'x' })).toBe(1)
      expect(sample(metrics, 'eventwatch_connection_lease', { connection_id: 'x', holder })).toBe(1)
      // Both team jobs run here: the ghost never held them.
      expect(sample(metrics, 'eventwatch_job_lease', { job: 'retention', holder })).toBe(1)
      expect(sample(metrics, 'eventwatch_job_lease', { job: 'repeats', holder })).toBe(1)
    },
    90_000
  )
})
