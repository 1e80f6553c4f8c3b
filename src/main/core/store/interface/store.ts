// The Store: the cache behind one asynchronous interface, its methods grouped by concern, its
// writes in explicit units of work (docs/store.md; docs/scaling-plan.md section 4). SQLite
// implements it today (store/sqlite/); a PostgreSQL store implements the same interface and passes
// the same contract suite (test/contract/store/).
import type { AlertReads, AlertStore } from './alerts'
import type { ConnectionReads, ConnectionStore } from './connections'
import type { CoreStateReads, CoreStateStore } from './core-state'
import type { Fence, LeaseStore } from './leases'
import type { MaintenanceReads, MaintenanceStore } from './maintenance'
import type { NotificationSender, Notifications } from './notifications'
import type { PollRequestReads, PollRequestStore } from './poll-requests'
import type { RetentionStore } from './retention'
import type { RunReads, RunStore } from './runs'
import type { SecretReads, SecretRowStore } from './secrets'
import type { SessionReads, SessionStore, SnapshotReads } from './sessions'
import type { SettingsReads, SettingsStore } from './settings'
import type { SiteReads, SiteStore } from './sites'
import type { TeamReads, TeamTables } from './team'
import type { ViewerReads } from './viewers'
import type { WebhookReads, WebhookStore } from './webhooks'

/** What a unit of work reads and writes: every concern, all in the unit's one transaction. */
export interface Tx {
  connections: ConnectionStore
  sessions: SessionStore
  snapshots: SnapshotReads
  viewers: ViewerReads
  alerts: AlertStore
  settings: SettingsStore
  webhooks: WebhookStore
  maintenance: MaintenanceStore
  runs: RunStore
  team: TeamTables
  coreState: CoreStateStore
  sites: SiteStore
  /** Sent when the unit commits, to every store listening (store.notifications). */
  notifications: NotificationSender
  secrets: SecretRowStore
  /** Requests a server asks the holder of a connection to run with its poller (PostgreSQL only:
   *  refused on SQLite, interface/poll-requests.ts). */
  pollRequests: PollRequestStore
  /** Forgetting what the settings no longer keep, a batch per call (store/retention.ts runs them). */
  retention: RetentionStore
}

/** Reads outside any unit: each is one statement and sees what has been committed. */
export interface ReadTx {
  connections: ConnectionReads
  sessions: SessionReads
  snapshots: SnapshotReads
  viewers: ViewerReads
  alerts: AlertReads
  settings: SettingsReads
  webhooks: WebhookReads
  maintenance: MaintenanceReads
  runs: RunReads
  team: TeamReads
  coreState: CoreStateReads
  sites: SiteReads
  secrets: SecretReads
  pollRequests: PollRequestReads
}

export interface UnitOptions {
  /** A unit that only reads: it sees one consistent state and may not write (a write rejects). */
  readOnly?: boolean
  /**
   * With `readOnly`: a long read that awaits other work between its reads (an export writing out
   * each page before it reads the next), still seeing one state throughout. It holds up nothing
   * else meanwhile: on SQLite it reads on a connection of its own, opened for it.
   */
  long?: boolean
  /**
   * The lease the unit writes under (PostgreSQL only): the unit begins by checking that its server
   * still holds it with this fence, and holds it FOR SHARE until it ends; a lease lost meanwhile
   * (taken over, released) means nothing is written and the unit rejects with LeaseLostError. A
   * SQLite store refuses a fenced unit: it has no leases (one server per file).
   */
  fence?: Fence
}

/** The schema of the data a store serves: what the database carries now, and what this build makes. */
export interface SchemaCheck {
  /** The version the database says now (on SQLite, PRAGMA user_version). */
  found: number
  /** The newest version this build's migrations make. */
  known: number
}

export interface Store {
  /**
   * Runs `work` as one unit of work: everything it writes through `tx` commits together when its
   * promise fulfils, and none of it when it rejects (the rejection is passed on). Nothing it writes
   * is seen outside the unit before the commit. `tx` is good only until the unit ends.
   *
   * A unit awaits only its own `tx`: do network or timers before or after it (on SQLite a unit
   * that awaits anything else is rolled back with UnitOfWorkError). A unit cannot open another:
   * pass its `tx` down.
   */
  withTransaction<T>(work: (tx: Tx) => Promise<T>, options?: UnitOptions): Promise<T>
  /** Single reads, no unit: each sees what has been committed. */
  read: ReadTx
  /** Leases of connections and jobs, shared by the servers of one database: PostgreSQL's alone.
   *  Absent on SQLite, where one server per file holds everything (interface/leases.ts). */
  leases?: LeaseStore
  /**
   * The schema version of the data, read afresh from the database itself — a round trip, not what
   * was read at open (a server's readiness: GET /readyz). Rejects when the database cannot be
   * reached or read (a StorageError in words, on SQLite).
   */
  schema(): Promise<SchemaCheck>
  /** What units of work of any store on the same database notify (other servers'): PostgreSQL's
   *  alone. Absent on SQLite, one server per file (docs/store.md). */
  readonly notifications?: Notifications
  /** Waits for the units under way, then closes the store; any later call rejects. */
  close(): Promise<void>
}
