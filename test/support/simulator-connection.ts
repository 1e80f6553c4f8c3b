// The simulator as a saved connection of a cache: the target the client talks to, with its row in
// `connections` (every cached row belongs to one). Shared by the tests that poll the simulator.
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import type { Db } from '../../src/main/core/store/db'
import { upsertConnection } from '../../src/main/core/store/sessions'

export function saveSimulatorConnection(db: Db, sim: RunningSimulator, id = 'c1', name = 'Tenant'): ConnectionTarget {
  const target = {
    id,
    name,
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    platformId: sim.credentials.platformId,
    tenantId: sim.credentials.tenantId,
    clientId: sim.credentials.clientId
  }
  upsertConnection(db, { ...target, isDemo: false })
  return target
}
