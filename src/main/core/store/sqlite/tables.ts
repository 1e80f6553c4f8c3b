// Every concern of a Tx on one SQLite connection, answering through `runners` (a unit's, which
// refuse once it has ended, or the plain reads'). Each concern's table is built when first used:
// a unit touches one or two of the ten, and it is built for every unit.
import type { Db } from '../db'
import type { Tx } from '../interface/store'
import { alertTable, maintenanceTable, webhookTable } from './alert-tables'
import type { Runners } from './runners'
import { connectionTable, runTable, sessionTable, settingsTable, snapshotTable, viewerTable } from './session-tables'
import { teamTables } from './team-tables'

type Builders = { [K in keyof Tx]: (db: Db, runners: Runners) => Tx[K] }

const BUILDERS: Builders = {
  connections: connectionTable,
  sessions: sessionTable,
  snapshots: snapshotTable,
  viewers: viewerTable,
  alerts: alertTable,
  settings: settingsTable,
  webhooks: webhookTable,
  maintenance: maintenanceTable,
  runs: runTable,
  team: teamTables
}

export function sqliteTables(db: Db, runners: Runners): Tx {
  const built: Partial<Tx> = {}
  const tx = {} as Tx
  for (const concern of Object.keys(BUILDERS) as (keyof Tx)[]) {
    Object.defineProperty(tx, concern, {
      enumerable: true,
      get: () => (built[concern] ??= BUILDERS[concern](db, runners) as never)
    })
  }
  return tx
}
