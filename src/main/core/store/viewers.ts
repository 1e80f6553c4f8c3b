// A session's latest viewer list: replaced whole, in one transaction, or not at all.
//
// Every field the app knows goes into a column of its own (network connections into rows of
// their own). `raw_json` keeps the record as received (as parsed) only when it holds something
// the columns cannot: a field the app does not know, at the top or inside a network connection,
// or an empty connection list. Otherwise it is `{}` — nearly always — and exports rebuild the
// record from the columns alone. Serialising every viewer cost more CPU and disk than all the
// columns together.
import type { Statement } from 'better-sqlite3'
import type { ViewerRecord } from '../api/schemas'
import { NETWORK_CONNECTION_FIELDS, VIEWER_SCALAR_FIELDS } from '../api/viewer-fields'
import type { Db } from './db'
import { statement } from './statements'

type NetworkConnection = NonNullable<ViewerRecord['networkConnections']>[number]

const KNOWN_VIEWER_FIELDS = new Set<string>([...VIEWER_SCALAR_FIELDS, 'networkConnections'])
const KNOWN_CONNECTION_FIELDS = new Set<string>(NETWORK_CONNECTION_FIELDS)
const NO_EXTRAS = '{}'

const VIEWER_COLUMNS = `connection_id, event_session_id, viewer_id, device_type, os, app,
  reliability_score, rebuffering_events, rebuffering_time, viewing_time, started_at, ended_at,
  cdn_traffic, ecdn_traffic, cdn_responses, cdn_errors, raw_json`
const VIEWER_PARAMS = 17
const CONNECTION_COLUMNS = `connection_id, event_session_id, viewer_id, position,
  connection_started, public_ip, private_ip, type_json, proxy_json, site_code`
const CONNECTION_PARAMS = 10
/** Rows per INSERT: one call into SQLite per batch rather than per row. */
const BATCH = 32

const toTime = (iso: string | undefined): number | null => (iso === undefined ? null : Date.parse(iso))
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value)

function insertSql(table: string, columns: string, params: number, rows: number): string {
  const row = `(${Array.from({ length: params }, () => '?').join(', ')})`
  return `INSERT OR REPLACE INTO ${table} (${columns}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`
}

/** Collects rows' parameters and writes them with multi-row INSERTs of up to BATCH rows. */
class BatchInsert {
  /** Parameters of the rows not yet written, `width` per row. */
  readonly values: unknown[] = []
  /** Prepared INSERTs by row count (index 0 unused), fetched once per list, not per flush. */
  private readonly inserts: (Statement | undefined)[] = []

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: string,
    private readonly width: number
  ) {}

  get pendingRows(): number {
    return this.values.length / this.width
  }

  /** Writes every pending row. */
  flush(): void {
    const rows = this.pendingRows
    if (rows === 0) return
    const full = BATCH * this.width
    let start = 0
    if (rows >= BATCH) {
      const insert = this.insert(BATCH)
      for (; this.values.length - start >= full; start += full) insert.run(this.values.slice(start, start + full))
    }
    const rest = (this.values.length - start) / this.width
    if (rest > 0) this.insert(rest).run(start === 0 ? this.values : this.values.slice(start))
    this.values.length = 0
  }

  private insert(rows: number): Statement {
    return (this.inserts[rows] ??= statement(this.db, insertSql(this.table, this.columns, this.width, rows)))
  }
}

/**
 * The record as JSON when it holds something the columns cannot (a field the app does not know,
 * at the top or in a network connection, or an empty connection list), else `{}`.
 */
function rawJson(v: ViewerRecord): string {
  for (const key in v) if (!KNOWN_VIEWER_FIELDS.has(key)) return JSON.stringify(v)
  const connections = v.networkConnections
  if (connections === undefined) return NO_EXTRAS
  if (connections.length === 0) return JSON.stringify(v)
  for (const c of connections) {
    for (const key in c) if (!KNOWN_CONNECTION_FIELDS.has(key)) return JSON.stringify(v)
  }
  return NO_EXTRAS
}

export function storeViewerList(
  db: Db,
  connectionId: string,
  eventSessionId: string,
  viewers: readonly ViewerRecord[],
  fetchedAt: number,
  pages: number
): void {
  const viewerRows = new BatchInsert(db, 'viewers', VIEWER_COLUMNS, VIEWER_PARAMS)
  const connectionRows = new BatchInsert(db, 'viewer_connections', CONNECTION_COLUMNS, CONNECTION_PARAMS)
  db.transaction(() => {
    // Replacing the list row cascades to the old viewers and their connections.
    statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ?').run(
      connectionId,
      eventSessionId
    )
    statement(
      db,
      `INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages)
       VALUES (?, ?, ?, ?, ?)`
    ).run(connectionId, eventSessionId, fetchedAt, viewers.length, pages)
    const vp = viewerRows.values
    const cp = connectionRows.values
    for (const v of viewers) {
      vp.push(
        connectionId,
        eventSessionId,
        v.viewerId,
        orNull(v.deviceType),
        orNull(v.os),
        orNull(v.app),
        orNull(v.reliabilityScore),
        orNull(v.rebufferingEvents),
        orNull(v.rebufferingTime),
        orNull(v.viewingTime),
        toTime(v.startedAt),
        toTime(v.endedAt),
        orNull(v.cdnTraffic),
        orNull(v.ecdnTraffic),
        orNull(v.cdnResponses),
        orNull(v.cdnErrors),
        rawJson(v)
      )
      const connections = v.networkConnections
      if (connections !== undefined) {
        for (let position = 0; position < connections.length; position++) {
          const c = connections[position] as NetworkConnection
          cp.push(
            connectionId,
            eventSessionId,
            v.viewerId,
            position,
            toTime(c.connectionStarted),
            orNull(c.publicIp),
            orNull(c.privateIp),
            c.type === undefined ? null : JSON.stringify(c.type),
            c.proxy === undefined ? null : JSON.stringify(c.proxy),
            orNull(c.siteCode)
          )
        }
      }
      if (viewerRows.pendingRows === BATCH) {
        // Connections reference their viewer's row (foreign key): viewers are written first.
        viewerRows.flush()
        connectionRows.flush()
      }
    }
    viewerRows.flush()
    connectionRows.flush()
  })()
}

/** Sessions of a connection whose complete viewer list the cache holds. */
export function sessionsWithViewerLists(db: Db, connectionId: string): Set<string> {
  const rows = statement(db, 'SELECT event_session_id AS id FROM viewer_lists WHERE connection_id = ?').all(
    connectionId
  ) as { id: string }[]
  return new Set(rows.map((r) => r.id))
}
