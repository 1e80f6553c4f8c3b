// Every concern of a Tx on PostgreSQL, answering through `runners` (a unit's client, which
// refuses once the unit has ended, or the pool's single reads). Each concern's table is built
// when first used, as on SQLite.
import type { Tx } from '../interface/store'
import { alertTable } from './alert-table'
import { connectionTable } from './connection-table'
import { coreStateTable } from './core-state-table'
import { maintenanceTable } from './maintenance-table'
import { notificationSender } from './notification-sender'
import { runTable } from './run-table'
import { secretTable } from './secret-table'
import { sessionTable } from './session-table'
import { snapshotReads } from './snapshot-reads'
import { settingsTable } from './settings-table'
import { siteTable } from './site-table'
import { retentionTable } from './retention-table'
import { pollRequestTable } from './poll-request-table'
import type { Runners } from './sql'
import { teamTables } from './team-tables'
import { viewerReads } from './viewer-reads'
import { webhookTable } from './webhook-table'

class PgTables implements Tx {
  private built: Partial<Tx> = {}

  constructor(private readonly runners: Runners) {}

  private table<K extends keyof Tx>(concern: K, build: (runners: Runners) => Tx[K]): Tx[K] {
    return (this.built[concern] ??= build(this.runners)) as Tx[K]
  }

  get connections() {
    return this.table('connections', connectionTable)
  }
  get sessions() {
    return this.table('sessions', sessionTable)
  }
  get snapshots() {
    return this.table('snapshots', ({ read }) => snapshotReads(read))
  }
  get viewers() {
    return this.table('viewers', viewerReads)
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
    return this.table('notifications', notificationSender)
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

export const pgTables = (runners: Runners): Tx => new PgTables(runners)
