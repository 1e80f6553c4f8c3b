// A session's latest viewer list: replaced whole, in one transaction, or not at all. The rows
// themselves are built by viewer-rows.ts.
import type { ViewerRecord } from '../api/schemas'
import { breakdownOfRows } from './breakdown-of-rows'
import type { Db } from './db'
import { keepBreakdowns } from './queries/breakdown'
import { statement } from './statements'
import {
  CONNECTION_COLUMNS,
  CONNECTION_ROW_WIDTH,
  VIEWER_COLUMNS,
  VIEWER_ROW_WIDTH,
  viewerListRows,
  type ViewerListRows
} from './viewer-rows'

/** Rows per INSERT: one call into SQLite per batch rather than per row. */
const BATCH = 32

function insertSql(table: string, columns: string, params: number, rows: number): string {
  const row = `(${Array.from({ length: params }, () => '?').join(', ')})`
  return `INSERT INTO ${table} (${columns}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`
}

/** Writes `values` (`width` per row) with multi-row INSERTs of up to BATCH rows each. */
function insertRows(db: Db, table: string, columns: string, width: number, values: unknown[]): void {
  const rows = values.length / width
  const full = BATCH * width
  let start = 0
  if (rows >= BATCH) {
    const insert = statement(db, insertSql(table, columns, width, BATCH))
    for (; values.length - start >= full; start += full) insert.run(values.slice(start, start + full))
  }
  const rest = (values.length - start) / width
  if (rest > 0) statement(db, insertSql(table, columns, width, rest)).run(start === 0 ? values : values.slice(start))
}

/**
 * Writes a list's rows (viewerListRows) as the session's viewer list, replacing the one held:
 * one transaction, so a reader or a crash sees the old list or the new one, never a mix.
 * The rows' id and list slots are filled in here; the arrays are not kept.
 */
export function writeViewerRows(
  db: Db,
  connectionId: string,
  eventSessionId: string,
  rows: ViewerListRows,
  fetchedAt: number,
  pages: number
): void {
  db.transaction(() => {
    // Replacing the list row cascades to the old viewers and their connections.
    statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ?').run(
      connectionId,
      eventSessionId
    )
    const listId = statement(
      db,
      `INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages)
       VALUES (?, ?, ?, ?, ?)`
    ).run(connectionId, eventSessionId, fetchedAt, rows.count, pages).lastInsertRowid as number
    // Viewer ids are given here, not by SQLite, so that connection rows can name their viewer
    // without a round trip per row; this transaction holds the write lock, so none can clash.
    const { last } = statement(db, 'SELECT COALESCE(MAX(id), 0) AS last FROM viewers').get() as { last: number }
    // Summed before the slots below turn list indexes into ids.
    const breakdowns = breakdownOfRows(rows)
    const firstId = last + 1
    const { viewers, connections } = rows
    for (let i = 0; i < viewers.length; i += VIEWER_ROW_WIDTH) {
      viewers[i] = firstId + (viewers[i] as number)
      viewers[i + 1] = listId
    }
    for (let i = 0; i < connections.length; i += CONNECTION_ROW_WIDTH) connections[i] = firstId + (connections[i] as number)
    // Connections reference their viewer's row (foreign key): viewers are written first.
    insertRows(db, 'viewers', VIEWER_COLUMNS, VIEWER_ROW_WIDTH, viewers)
    insertRows(db, 'viewer_connections', CONNECTION_COLUMNS, CONNECTION_ROW_WIDTH, connections)
    keepBreakdowns(db, listId, fetchedAt, breakdowns)
  })()
}

/** Replaces the session's viewer list with `viewers`, in one transaction. */
export function storeViewerList(
  db: Db,
  connectionId: string,
  eventSessionId: string,
  viewers: readonly ViewerRecord[],
  fetchedAt: number,
  pages: number
): void {
  writeViewerRows(db, connectionId, eventSessionId, viewerListRows(viewers), fetchedAt, pages)
}

/** Sessions of a connection whose complete viewer list the cache holds. */
export function sessionsWithViewerLists(db: Db, connectionId: string): Set<string> {
  const rows = statement(db, 'SELECT event_session_id AS id FROM viewer_lists WHERE connection_id = ?').all(
    connectionId
  ) as { id: string }[]
  return new Set(rows.map((r) => r.id))
}

/** A viewer sample for the unit detection (units.ts). */
export interface ViewerSample {
  viewing: number
  spanMs: number
  traffic: number
}

/** Viewers sampled for the time and traffic units: enough to be sure, cheap at any cache size. */
const UNIT_SAMPLE = 500

export function viewerUnitSample(db: Db): ViewerSample[] {
  return statement(
    db,
    `SELECT viewing_time AS viewing, ended_at - started_at AS spanMs, COALESCE(cdn_traffic, 0) + COALESCE(ecdn_traffic, 0) AS traffic
     FROM viewers
     WHERE viewing_time > 0 AND started_at IS NOT NULL AND ended_at > started_at
     LIMIT ${UNIT_SAMPLE}`
  ).all() as ViewerSample[]
}
