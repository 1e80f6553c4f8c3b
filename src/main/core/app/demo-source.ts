// The embedded default data source: the simulator on loopback, registered as the "Demo data"
// connection, with a client that talks to it over real HTTP like any other tenant.
import type { ReportingClient } from '../api/client'
import type { ConnectionTarget } from '../api/connection'
import type { RequestLimiter } from '../api/limiter'
import { startSimulator, type SimulatorOptions } from '../simulator/server'
import type { Store } from '../store/interface/store'
import { createReportingClient } from './client-factory'

export const DEMO_CONNECTION_ID = 'demo'
export const DEMO_CONNECTION_NAME = 'Demo data'

/** A connection ready to poll: where, with which client, and how to let go of it. */
export interface DataSource {
  target: ConnectionTarget
  client: ReportingClient
  lookbackDays: number
  isDemo: boolean
  close(): Promise<void>
}

export async function startDemoSource(
  store: Store,
  simulatorOptions: SimulatorOptions = {},
  limiter?: RequestLimiter
): Promise<DataSource> {
  const simulator = await startSimulator(simulatorOptions)
  const target: ConnectionTarget = {
    id: DEMO_CONNECTION_ID,
    name: DEMO_CONNECTION_NAME,
    baseUrl: simulator.baseUrl,
    authUrl: simulator.authUrl,
    platformId: simulator.credentials.platformId,
    tenantId: simulator.credentials.tenantId,
    clientId: simulator.credentials.clientId
  }
  try {
    const row = { ...target, isDemo: true }
    await store.withTransaction((tx) => tx.connections.upsert(row, Date.now()))
  } catch (error) {
    await simulator.close()
    throw error
  }
  return {
    target,
    client: createReportingClient(store, target, async () => simulator.credentials, limiter),
    lookbackDays: 7,
    isDemo: true,
    close: () => simulator.close()
  }
}
