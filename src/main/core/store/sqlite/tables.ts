// Every concern of a Tx on one SQLite connection, answering through `runners` (a unit's, which
// refuse once it has ended, or the plain reads').
import type { Db } from '../db'
import type { Tx } from '../interface/store'
import { alertTable, maintenanceTable, teamTables, webhookTable } from './alert-tables'
import type { Runners } from './runners'
import { connectionTable, runTable, sessionTable, settingsTable, snapshotTable, viewerTable } from './session-tables'

export function sqliteTables(db: Db, runners: Runners): Tx {
  return {
    connections: connectionTable(db, runners),
    sessions: sessionTable(db, runners),
    snapshots: snapshotTable(db, runners),
    viewers: viewerTable(db, runners),
    alerts: alertTable(db, runners),
    settings: settingsTable(db, runners),
    webhooks: webhookTable(db, runners),
    maintenance: maintenanceTable(db, runners),
    runs: runTable(db, runners),
    team: teamTables(db, runners)
  }
}
