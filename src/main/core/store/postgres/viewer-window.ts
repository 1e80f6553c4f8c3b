// A held list's viewers as `eventwatch export` writes them, a window at a time, on PostgreSQL
// (export-chunks.ts on SQLite): ordered by start (none last), then viewer id in byte order; each
// record with its network connections, read in one second query for the whole window.
import type { ExportChunk } from '../../../../shared/screens'
import { toViewer, type ConnectionRow, type ViewerRow } from '../exports'
import type { ViewerWindowQuery } from '../interface/viewers'
import { pageBounds } from '../queries/sql'
import { all, one, type Sql } from './sql'
import { BINARY, HELD_LIST } from './viewer-sql'

const VIEWER_COLUMNS = `v.viewer_id, v.device_type, v.os, v.app, v.reliability_score, v.rebuffering_events, v.rebuffering_time,
  v.viewing_time, v.started_at, v.ended_at, v.cdn_traffic, v.ecdn_traffic, v.cdn_responses, v.cdn_errors, v.raw_json`

type WindowRow = Omit<ViewerRow, 'connection_id'> & { ordinal: number }
type OwnConnection = Omit<ConnectionRow, 'connection_id' | 'viewer_id'> & { ordinal: number }

/** Viewer records of list `listId`, each with its network connections (two queries in all). */
async function viewerWindow(read: Sql, connectionId: string, listId: number, viewerId: string | null, offset: number, limit: number): Promise<Record<string, unknown>[]> {
  const rows = await all<WindowRow>(
    read,
    `SELECT v.ordinal, ${VIEWER_COLUMNS} FROM viewers v
     WHERE v.list_id = $1 AND ($2::text IS NULL OR v.viewer_id = $2)
     ORDER BY v.started_at IS NULL, v.started_at, ${BINARY('v.viewer_id')}, v.ordinal
     LIMIT $3 OFFSET $4`,
    [listId, viewerId, limit, offset]
  )
  if (rows.length === 0) return []
  const own = await all<OwnConnection>(
    read,
    `SELECT ordinal, position, connection_started, public_ip, private_ip, type_json, proxy_json, site_code
     FROM viewer_connections WHERE list_id = $1 AND ordinal = ANY($2::integer[])
     ORDER BY ordinal, position`,
    [listId, rows.map((r) => r.ordinal)]
  )
  const byViewer = new Map<number, ConnectionRow[]>()
  for (const c of own) {
    const list = byViewer.get(c.ordinal) ?? []
    list.push({ ...c, connection_id: connectionId, viewer_id: '' })
    byViewer.set(c.ordinal, list)
  }
  return rows.map((r) => toViewer({ ...r, connection_id: connectionId }, byViewer.get(r.ordinal) ?? []))
}

/** A window of the held list, never more than MAX_PAGE records; its total is the list's. */
export async function viewerExportWindow(read: Sql, q: ViewerWindowQuery): Promise<ExportChunk> {
  const list = await one<{ id: number; total: number }>(read, `SELECT id, viewer_count AS total ${HELD_LIST}`, [q.connectionId, q.eventSessionId])
  if (!list) return { records: [], total: 0 }
  const { limit, offset } = pageBounds(q.limit, q.offset)
  return { records: await viewerWindow(read, q.connectionId, list.id, null, offset, limit), total: list.total }
}

/** One viewer of the held list, every field; null when the list holds none by that id. */
export async function viewerDetail(read: Sql, connectionId: string, eventSessionId: string, viewerId: string): Promise<Record<string, unknown> | null> {
  const list = await one<{ id: number }>(read, `SELECT id ${HELD_LIST}`, [connectionId, eventSessionId])
  if (!list) return null
  return (await viewerWindow(read, connectionId, list.id, viewerId, 0, 1))[0] ?? null
}
