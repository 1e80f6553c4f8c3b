// Every concern of a Tx on one SQLite connection, answering through `runners` (a unit's, which
// refuse once it has ended, or the plain reads'). Each concern's table is built when first used:
// a unit touches one or two of the fifteen, and it is built for every unit.
import type { Db } from '../db'
import type { Tx } from '../interface/store'
import { alertTable, maintenanceTable, webhookTable } from './alert-tables'
import type { Runners } from './runners'
import { connectionTable, runTable, sessionTable, settingsTable, snapshotTable, viewerTable } from './session-tables'
import { teamTables } from './team-tables'
import { coreStateTable } from './core-state-table'
import { siteTable } from './site-table'
import { unheardNotifications } from './unheard-notifications'
import { secretTable } from './secret-table'
import { retentionTable } from './retention-table'
import { pollRequestTable } from './poll-request-table'

class SqliteTables implements Tx {
  private built: Partial<Tx> = {}

  constructor(
    private readonly db: Db,
    private readonly runners: Runners
  ) {}

  private table<K extends keyof Tx>(concern: K, build: (db: Db, runners: Runners) => Tx[K]): Tx[K] {
    return (this.built[concern] ??= build(this.db, this.runners)) as Tx[K]
  }

  get connections() {
    return this.table('connections', connectionTable)
  }
  get sessions() {
    return this.table('sessions', sessionTable)
  }
  get snapshots() {
    return this.table('snapshots', snapshotTable)
  }
  get viewers() {
    return this.table('viewers', viewerTable)
  }
  get alerts() {
    return this.table('alerts', alertTable)
  }
  get settings() {
    return this.table('settings', settingsTable)
  }
  get webhooks() {
    return this.table('webhooks', webhookTable)
  }
  get maintenance() {
    return this.table('maintenance', maintenanceTable)
  }
  get runs() {
    return this.table('runs', runTable)
  }
  get team() {
    return this.table('team', teamTables)
  }
  get coreState() {
    return this.table('coreState', coreStateTable)
  }
  get sites() {
    return this.table('sites', siteTable)
  }
  get notifications() {
    return this.table('notifications', (_db, runners) => unheardNotifications(runners))
  }
  get secrets() {
    return this.table('secrets', secretTable)
  }
  get retention() {
    return this.table('retention', retentionTable)
  }
  get pollRequests() {
    return this.table('pollRequests', pollRequestTable)
  }
}

export const sqliteTables = (db: Db, runners: Runners): Tx => new SqliteTables(db, runners)
