// The simulator as a connection: the target a client talks to (saved as a cache's row in
// `connections` when the test has a cache), and a ReportingClient on it over loopback. Shared by
// the tests that poll the simulator or prove what the client does with it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { ReportingClient, type ClientDiagnostic, type ReportingClientOptions } from '../../src/main/core/api/client'
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { upsertConnection } from '../../src/main/core/store/connections'
import { fakeClock } from './fake-clock'

/** The connection that reaches `sim` with its own credentials' IDs. */
export function simulatorTarget(sim: RunningSimulator, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return {
    id: 'test',
    name: 'Test',
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    platformId: sim.credentials.platformId,
    tenantId: sim.credentials.tenantId,
    clientId: sim.credentials.clientId,
    ...overrides
  }
}

/** `sim` saved as a connection of the cache `db` (every cached row belongs to one). */
export function saveSimulatorConnection(db: Db, sim: RunningSimulator, id = 'c1', name = 'Tenant'): ConnectionTarget {
  const target = simulatorTarget(sim, { id, name })
  upsertConnection(db, { ...target, isDemo: false })
  return target
}

/** A new cache (a SQLite file in a temporary folder) with `sim` saved as its connection c1; the
 *  cache is closed and its folder removed when the test ends. */
export function simulatorCache(sim: RunningSimulator): { db: Db; target: ConnectionTarget } {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-cache-'))
  const db = openDatabase(join(dir, 'cache.db'))
  onTestFinished(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, target: saveSimulatorConnection(db, sim) }
}

/**
 * A simulator (a small frozen world, closed when the test ends) and a ReportingClient on it,
 * on one fake clock. Retries sleep no real time: their delays are recorded in `sleeps`, with
 * the jitter fixed at one half; `clientOptions.retry` is merged into that.
 */
export async function simulatorClient(
  simOptions: SimulatorOptions = {},
  clientOptions: ReportingClientOptions = {},
  target: Partial<ConnectionTarget> = {}
) {
  const clock = fakeClock()
  const sim = await startSimulator({
    clock: clock.now,
    liveSessions: 4,
    endedSessions: 6,
    viewersPerSession: 20,
    churnSessions: false,
    ...simOptions
  })
  onTestFinished(() => sim.close())
  const sleeps: number[] = []
  const diagnostics: ClientDiagnostic[] = []
  const client = new ReportingClient(simulatorTarget(sim, target), async () => sim.credentials, {
    clock: clock.now,
    ...clientOptions,
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms)
      },
      random: () => 0.5,
      ...clientOptions.retry
    },
    onDiagnostic: (d) => diagnostics.push(d)
  })
  return { sim, client, clock, sleeps, diagnostics }
}
