// Exports in chunks for the UI: a session, its snapshots or its viewers, a window at a time, so
// a 100,000-viewer export shows progress and never holds the core for long. Records are the
// ones `eventwatch export` writes (API field names, raw extras kept).
import type { ExportChunk, ExportKind } from '../../../shared/screens'
import type { Db } from './db'
import { exportSnapshots, toViewer, VIEWER_ROW_COLUMNS, type ConnectionRow, type ViewerRow } from './exports'
import { exportSessions } from './sessions'
import { statement } from './statements'

export interface ChunkQuery {
  connectionId: string
  eventSessionId: string
  kind: ExportKind
  offset: number
  limit: number
}

const WINDOW = `
  SELECT v.id, ${VIEWER_ROW_COLUMNS}
  FROM viewer_lists vl JOIN viewers v ON v.list_id = vl.id
  WHERE vl.connection_id = @connectionId AND vl.event_session_id = @eventSessionId AND vl.staged_at IS NULL
    AND (@viewerId IS NULL OR v.viewer_id = @viewerId)
  ORDER BY v.started_at IS NULL, v.started_at, v.viewer_id
  LIMIT @limit OFFSET @offset`

const CONNECTIONS_OF = `
  SELECT viewer, position, connection_started, public_ip, private_ip, type_json, proxy_json, site_code
  FROM viewer_connections WHERE viewer IN (SELECT value FROM json_each(@ids))
  ORDER BY viewer, position`

type WindowRow = ViewerRow & { id: number }
type OwnConnection = Omit<ConnectionRow, 'connection_id' | 'viewer_id'> & { viewer: number }

interface WindowQuery {
  connectionId: string
  eventSessionId: string
  viewerId: string | null
  offset: number
  limit: number
}

/** Viewer records of one window, each with its network connections (two queries in all). */
function viewerWindow(db: Db, q: WindowQuery): Record<string, unknown>[] {
  const rows = statement(db, WINDOW).all(q) as WindowRow[]
  const byViewer = new Map<number, ConnectionRow[]>()
  if (rows.length > 0) {
    const own = statement(db, CONNECTIONS_OF).all({ ids: JSON.stringify(rows.map((r) => r.id)) }) as OwnConnection[]
    for (const c of own) {
      const list = byViewer.get(c.viewer) ?? []
      list.push({ ...c, connection_id: q.connectionId, viewer_id: '' })
      byViewer.set(c.viewer, list)
    }
  }
  return rows.map((r) => toViewer(r, byViewer.get(r.id) ?? []))
}

/** One cached viewer, every field; null when the cache holds no such viewer. */
export function viewerDetail(db: Db, connectionId: string, eventSessionId: string, viewerId: string): Record<string, unknown> | null {
  return viewerWindow(db, { connectionId, eventSessionId, viewerId, offset: 0, limit: 1 })[0] ?? null
}

export function exportChunk(db: Db, q: ChunkQuery): ExportChunk {
  const key = { connectionId: q.connectionId, eventSessionId: q.eventSessionId }
  if (q.kind === 'session') {
    const records = exportSessions(db, key)
    return { records: records.slice(q.offset, q.offset + q.limit), total: records.length }
  }
  if (q.kind === 'snapshots') {
    const records = exportSnapshots(db, q.eventSessionId, q.connectionId)
    return { records: records.slice(q.offset, q.offset + q.limit), total: records.length }
  }
  const list = statement(db, 'SELECT viewer_count AS total FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL').get(
    q.connectionId,
    q.eventSessionId
  ) as { total: number } | undefined
  if (!list) return { records: [], total: 0 }
  return { records: viewerWindow(db, { ...key, viewerId: null, offset: q.offset, limit: q.limit }), total: list.total }
}
