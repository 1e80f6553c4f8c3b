// Named queries for `eventwatch export`: cached records under the API's own field names, with
// the values last received. Each record is the raw JSON as received (so fields the service adds
// later survive), overlaid with the normalized columns; a field the service did not send is
// left out rather than exported as null.
import type { Db } from './db'
import { statement } from './statements'
import { VIEWER_SCALAR_FIELDS } from '../api/viewer-fields'

export { exportSessions } from './sessions'

export type ExportRecord = Record<string, unknown>

/** Where a session id is cached: one entry per connection that knows it. */
export interface SessionLocation {
  connectionId: string
  connectionName: string
  /** Whether a complete viewer list is cached for it (sync fetches them). */
  hasViewerList: boolean
  viewerCount: number | null
}

/**
 * The connections under which `eventSessionId` is cached, by connection name. Empty: unknown
 * session. More than one: the id is ambiguous (two tenants), and the caller should ask which.
 */
export function sessionConnections(db: Db, eventSessionId: string): SessionLocation[] {
  const rows = statement(
    db,
    `SELECT s.connection_id AS connectionId, c.name AS connectionName,
       vl.event_session_id IS NOT NULL AS hasViewerList, vl.viewer_count AS viewerCount
     FROM sessions s
     JOIN connections c ON c.id = s.connection_id
     LEFT JOIN viewer_lists vl
       ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL
     WHERE s.event_session_id = ?
     ORDER BY c.name, s.connection_id`
  ).all(eventSessionId) as (Omit<SessionLocation, 'hasViewerList'> & { hasViewerList: number })[]
  return rows.map((r) => ({ ...r, hasViewerList: r.hasViewerList === 1 }))
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** Sets `key` only when the column holds a value: absent stays absent. */
function put(target: ExportRecord, key: string, value: unknown): void {
  if (value !== null && value !== undefined) target[key] = value
}

function parseObject(json: string): ExportRecord {
  const value: unknown = JSON.parse(json)
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as ExportRecord) : {}
}

// The session's rows (table alias `t`) across every connection that caches it, or just the one
// asked for. The IN-subquery keeps the (connection_id, event_session_id, …) keys usable.
const scope = (t: string): string => `${t}.connection_id IN (
    SELECT connection_id FROM sessions
    WHERE event_session_id = @sessionId AND (@connectionId IS NULL OR connection_id = @connectionId)
  ) AND ${t}.event_session_id = @sessionId`

// Both queries below walk viewers in this same order, so their rows can be merged in one pass.
const VIEWER_ORDER = 'v.started_at IS NULL, v.started_at, v.viewer_id, vl.connection_id'

export interface ViewerRow {
  connection_id: string
  viewer_id: string
  device_type: string | null
  os: string | null
  app: string | null
  reliability_score: number | null
  rebuffering_events: number | null
  rebuffering_time: number | null
  viewing_time: number | null
  started_at: number | null
  ended_at: number | null
  cdn_traffic: number | null
  ecdn_traffic: number | null
  cdn_responses: number | null
  cdn_errors: number | null
  raw_json: string
}

export interface ConnectionRow {
  connection_id: string
  viewer_id: string
  position: number
  connection_started: number | null
  public_ip: string | null
  private_ip: string | null
  type_json: string | null
  proxy_json: string | null
  site_code: number | null
}

/** The columns of a ViewerRow, from `viewer_lists vl JOIN viewers v`. */
export const VIEWER_ROW_COLUMNS = `vl.connection_id, v.viewer_id, v.device_type, v.os, v.app, v.reliability_score,
    v.rebuffering_events, v.rebuffering_time, v.viewing_time, v.started_at, v.ended_at,
    v.cdn_traffic, v.ecdn_traffic, v.cdn_responses, v.cdn_errors, v.raw_json`

const SELECT_VIEWERS = `
  SELECT ${VIEWER_ROW_COLUMNS}
  FROM viewer_lists vl
  JOIN viewers v ON v.list_id = vl.id
  WHERE ${scope('vl')} AND vl.staged_at IS NULL
  ORDER BY ${VIEWER_ORDER}`

const SELECT_CONNECTIONS = `
  SELECT vl.connection_id, v.viewer_id, vc.position, vc.connection_started, vc.public_ip,
    vc.private_ip, vc.type_json, vc.proxy_json, vc.site_code
  FROM viewer_lists vl
  JOIN viewers v ON v.list_id = vl.id
  JOIN viewer_connections vc ON vc.viewer = v.id
  WHERE ${scope('vl')} AND vl.staged_at IS NULL
  ORDER BY ${VIEWER_ORDER}, vc.position`

function toNetworkConnection(row: ConnectionRow, raw: unknown): ExportRecord {
  const record: ExportRecord = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...raw } : {}
  put(record, 'connectionStarted', row.connection_started === null ? null : iso(row.connection_started))
  put(record, 'publicIp', row.public_ip)
  put(record, 'privateIp', row.private_ip)
  // `type` is whatever the service sent (the spec does not say): stored as JSON, given back as is.
  put(record, 'type', row.type_json === null ? null : JSON.parse(row.type_json))
  put(record, 'proxy', row.proxy_json === null ? null : JSON.parse(row.proxy_json))
  put(record, 'siteCode', row.site_code)
  return record
}

export function toViewer(row: ViewerRow, connections: ConnectionRow[]): ExportRecord {
  const record = parseObject(row.raw_json)
  record.viewerId = row.viewer_id
  put(record, 'deviceType', row.device_type)
  put(record, 'os', row.os)
  put(record, 'app', row.app)
  if (connections.length > 0) {
    const raw = Array.isArray(record.networkConnections) ? (record.networkConnections as unknown[]) : []
    record.networkConnections = connections.map((c) => toNetworkConnection(c, raw[c.position]))
  }
  put(record, 'reliabilityScore', row.reliability_score)
  put(record, 'rebufferingEvents', row.rebuffering_events)
  put(record, 'rebufferingTime', row.rebuffering_time)
  put(record, 'viewingTime', row.viewing_time)
  put(record, 'startedAt', row.started_at === null ? null : iso(row.started_at))
  put(record, 'endedAt', row.ended_at === null ? null : iso(row.ended_at))
  put(record, 'cdnTraffic', row.cdn_traffic)
  put(record, 'ecdnTraffic', row.ecdn_traffic)
  put(record, 'cdnResponses', row.cdn_responses)
  put(record, 'cdnErrors', row.cdn_errors)
  return record
}

/**
 * A session's cached viewers, one at a time, by startedAt then viewerId: a session can hold
 * 100,000 viewers, so nothing is collected. Network connections come from one second query in
 * the same order, merged as the viewers go by (never one query per viewer). Stop early with
 * `return()` (a `break` in for…of does it) to release the statements.
 */
export function* iterateViewers(db: Db, eventSessionId: string, connectionId?: string): Generator<ExportRecord> {
  const params = { sessionId: eventSessionId, connectionId: connectionId ?? null }
  const viewers = statement(db, SELECT_VIEWERS).iterate(params) as IterableIterator<ViewerRow>
  const connections = statement(db, SELECT_CONNECTIONS).iterate(params) as IterableIterator<ConnectionRow>
  try {
    let next = connections.next()
    for (const viewer of viewers) {
      const own: ConnectionRow[] = []
      while (!next.done && next.value.viewer_id === viewer.viewer_id && next.value.connection_id === viewer.connection_id) {
        own.push(next.value)
        next = connections.next()
      }
      yield toViewer(viewer, own)
    }
  } finally {
    viewers.return?.()
    connections.return?.()
  }
}

/** A session's cached viewers as an array (see iterateViewers for large sessions). */
export function exportViewers(db: Db, eventSessionId: string, connectionId?: string): ExportRecord[] {
  return [...iterateViewers(db, eventSessionId, connectionId)]
}

// A type, not an interface, so it passes where plain records are expected (CSV, JSON).
export type SnapshotExport = {
  time: string
  viewersCount: number
  reliabilityScore: number
  cdnTraffic: number
  ecdnTraffic: number
}

/** A session's snapshots (one per poll while it was live), oldest first. */
export function exportSnapshots(db: Db, eventSessionId: string, connectionId?: string): SnapshotExport[] {
  const rows = statement(
    db,
    `SELECT s.taken_at, s.viewers_count, s.reliability_score, s.cdn_traffic, s.ecdn_traffic
     FROM snapshots s WHERE ${scope('s')}
     ORDER BY s.taken_at, s.id`
  ).all({ sessionId: eventSessionId, connectionId: connectionId ?? null }) as {
    taken_at: number
    viewers_count: number
    reliability_score: number
    cdn_traffic: number
    ecdn_traffic: number
  }[]
  return rows.map((r) => ({
    time: iso(r.taken_at),
    viewersCount: r.viewers_count,
    reliabilityScore: r.reliability_score,
    cdnTraffic: r.cdn_traffic,
    ecdnTraffic: r.ecdn_traffic
  }))
}

/** Column names for an empty export's CSV header. */
export const SNAPSHOT_FIELDS = ['time', 'viewersCount', 'reliabilityScore', 'cdnTraffic', 'ecdnTraffic'] as const
export const VIEWER_FIELDS = VIEWER_SCALAR_FIELDS
export const SESSION_FIELDS = [
  'eventSessionId',
  'platformId',
  'tenantId',
  'contentId',
  'eventName',
  'startedAt',
  'updatedAt',
  'hasEnded',
  'viewersCount',
  'reliabilityScore',
  'cdnTraffic',
  'ecdnTraffic'
] as const
