// What `eventwatch store copy` moves from a SQLite cache into PostgreSQL: every table of the
// cache, named here in an order PostgreSQL's foreign keys accept (a row's parent before it), the
// viewer lists last (millions of rows). Columns are matched by name between the two schemas; the
// few that differ on purpose are named here too, so that anything else that differs (a later
// migration on one side only) stops the copy instead of losing a column.
//
// A table of either schema that is not in this file fails test/integration/store-postgres-copy-plan:
// a new migration must say here how (or why not) its table is copied.

export interface CopiedTable {
  name: string
  /** SQLite columns PostgreSQL computes itself (a generated column): not copied. */
  derived?: readonly string[]
  /** Rows PostgreSQL cannot hold, left out of the copy: `where` picks them in SQLite, `why` says
   *  why in the command's words ("… left out: <why>"). */
  leftOut?: { where: string; why: string }
  /** PostgreSQL keys the table otherwise than SQLite: `select` reads the cache's rows as
   *  PostgreSQL's columns (named as they are there), one for one, using `reads` — every column the
   *  cache's table has, so that one added later stops the copy until this says where it goes. */
  reshaped?: { select: string; reads: readonly string[] }
}

// PostgreSQL keys a viewer by its list and its place in it (from 0, as its writer numbers them as
// pages arrive) where SQLite gives it an id: the place is the order of the ids within the list,
// which is the order the viewers arrived in and the order every read breaks ties by.
const ORDINAL = 'row_number() OVER (PARTITION BY list_id ORDER BY id) - 1'
const VIEWER_FIELDS = [
  'viewer_id', 'device_type', 'os', 'app', 'reliability_score', 'rebuffering_events', 'rebuffering_time', 'viewing_time',
  'started_at', 'ended_at', 'cdn_traffic', 'ecdn_traffic', 'cdn_responses', 'cdn_errors', 'raw_json'
]
const CONNECTION_FIELDS = ['position', 'connection_started', 'public_ip', 'private_ip', 'type_json', 'proxy_json', 'site_code']

export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'connections' },
  // search_text is a generated column on PostgreSQL (SQLite keeps it by triggers).
  { name: 'sessions', derived: ['search_text'] },
  { name: 'snapshots' },
  { name: 'alerts' },
  { name: 'alert_transitions' },
  { name: 'alert_overrides' },
  { name: 'notification_pause' },
  { name: 'webhooks' },
  { name: 'webhook_outbox' },
  { name: 'settings' },
  { name: 'maintenance_windows' },
  { name: 'sync_runs' },
  {
    name: 'diagnostics',
    // SQLite has no foreign key here (a trigger deletes a removed connection's rows), so a
    // diagnostic recorded as its connection was removed can outlive it; PostgreSQL's can not.
    leftOut: {
      where: 'connection_id IS NOT NULL AND connection_id NOT IN (SELECT id FROM connections)',
      why: 'they belong to connections no longer in the cache'
    }
  },
  { name: 'users' },
  { name: 'user_sessions' },
  { name: 'user_settings' },
  { name: 'audit_log' },
  { name: 'site_names' },
  { name: 'revisions' },
  { name: 'poller_status' },
  { name: 'alert_cooling' },
  { name: 'alert_judged' },
  { name: 'alert_changes' },
  { name: 'viewer_lists' },
  {
    name: 'viewers',
    reshaped: {
      select: `SELECT list_id, ${ORDINAL} AS ordinal, ${VIEWER_FIELDS.join(', ')} FROM viewers`,
      reads: ['id', 'list_id', ...VIEWER_FIELDS]
    }
  },
  {
    name: 'viewer_connections',
    reshaped: {
      // Each connection takes its viewer's (list, ordinal) in place of the viewer's id.
      select: `SELECT v.list_id, v.ordinal, ${CONNECTION_FIELDS.map((f) => `c.${f}`).join(', ')}
        FROM (SELECT id, list_id, ${ORDINAL} AS ordinal FROM viewers) v JOIN viewer_connections c ON c.viewer = v.id`,
      reads: ['viewer', ...CONNECTION_FIELDS]
    }
  },
  { name: 'viewer_breakdowns' }
]

/** SQLite's own bookkeeping, not the cache's data: sqlite_sequence (AUTOINCREMENT's high-water
 *  marks, which the copy carries into PostgreSQL's sequences), sqlite_stat1 and kin (ANALYZE). */
export const isSqliteInternal = (table: string): boolean => table.startsWith('sqlite_')

/** PostgreSQL's tables that have no SQLite counterpart: left as the target's migrations made them. */
export const POSTGRES_ONLY_TABLES: readonly string[] = [
  // The versions applied (PRAGMA user_version on SQLite).
  'schema_migrations',
  // Who polls which connection, and which servers are alive (docs/scaling-plan.md, section 2): a
  // copy starts with none, and the servers started on it take the leases.
  'leases',
  'lease_holders',
  // Requests one server asked another to run with its poller (section 2): answered within minutes,
  // none in a new copy.
  'poll_requests',
  // Lists dropped whose viewers wait to be purged (postgres/viewer-purge.ts): none in a new copy.
  'viewer_lists_dropped',
  // The sealed secrets (migration 025): a SQLite cache keeps its secrets in the OS keychain, and
  // the copy seals them from there when given a key file (keychain-secrets.ts).
  'encrypted_secrets'
]
