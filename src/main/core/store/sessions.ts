// Named queries over sessions and snapshots: the only place their SQL lives.
import type { EventSessionRecord } from '../api/schemas'
import type { Db } from './db'
import { statement } from './statements'

// ended_observed_at: when the cache first saw the session ended (kept from then on; NULL while
// live, also if the service ever reports it live again). peak_viewers: the highest count a poll
// saw while the session was live (issue 24): once it has ended, the service's viewersCount is a
// count after the end (some give everyone who watched), never a concurrent peak. A viewer list's
// peak raises it too (viewer-list-summary.ts).
const UPSERT_SESSION = `
  INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, event_name,
    started_at, updated_at, has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic,
    raw_json, first_seen_at, last_polled_at, ended_observed_at, peak_viewers)
  VALUES (@connectionId, @eventSessionId, @platformId, @tenantId, @contentId, @eventName,
    @startedAt, @updatedAt, @hasEnded, @viewersCount, @reliabilityScore, @cdnTraffic, @ecdnTraffic,
    @rawJson, @polledAt, @polledAt, CASE WHEN @hasEnded = 1 THEN @polledAt END, CASE WHEN @hasEnded = 1 THEN 0 ELSE @viewersCount END)
  ON CONFLICT (connection_id, event_session_id) DO UPDATE SET
    platform_id = excluded.platform_id, tenant_id = excluded.tenant_id, content_id = excluded.content_id,
    event_name = excluded.event_name, started_at = excluded.started_at, updated_at = excluded.updated_at,
    has_ended = excluded.has_ended, viewers_count = excluded.viewers_count,
    reliability_score = excluded.reliability_score, cdn_traffic = excluded.cdn_traffic,
    ecdn_traffic = excluded.ecdn_traffic, raw_json = excluded.raw_json, last_polled_at = excluded.last_polled_at,
    ended_observed_at = CASE WHEN excluded.has_ended = 1
      THEN COALESCE(sessions.ended_observed_at, excluded.ended_observed_at) END,
    peak_viewers = MAX(sessions.peak_viewers, excluded.peak_viewers)
  WHERE excluded.updated_at >= sessions.updated_at`

const INSERT_SNAPSHOT = `
  INSERT INTO snapshots (connection_id, event_session_id, taken_at, viewers_count, reliability_score,
    cdn_traffic, ecdn_traffic)
  VALUES (@connectionId, @eventSessionId, @polledAt, @viewersCount, @reliabilityScore, @cdnTraffic, @ecdnTraffic)`

function sessionParams(connectionId: string, r: EventSessionRecord, polledAt: number) {
  return {
    connectionId,
    eventSessionId: r.eventSessionId,
    platformId: r.platformId,
    tenantId: r.tenantId,
    contentId: r.contentId,
    eventName: r.eventName ?? null,
    startedAt: Date.parse(r.startedAt),
    updatedAt: Date.parse(r.updatedAt),
    hasEnded: r.hasEnded ? 1 : 0,
    viewersCount: Math.round(r.viewersCount),
    reliabilityScore: r.reliabilityScore,
    cdnTraffic: Math.round(r.cdnTraffic),
    ecdnTraffic: Math.round(r.ecdnTraffic),
    // The record as received, so fields the service adds later are not lost.
    rawJson: JSON.stringify(r),
    polledAt
  }
}

/** A page of list items, in one transaction. */
export function storeSessionList(db: Db, connectionId: string, records: EventSessionRecord[], polledAt: number): void {
  const upsert = statement(db, UPSERT_SESSION)
  db.transaction(() => {
    for (const r of records) upsert.run(sessionParams(connectionId, r, polledAt))
  })()
}

/** One live session's fresh record and its snapshot, together or not at all. */
export function storeSessionSnapshot(db: Db, connectionId: string, record: EventSessionRecord, polledAt: number): void {
  const params = sessionParams(connectionId, record, polledAt)
  db.transaction(() => {
    statement(db, UPSERT_SESSION).run(params)
    statement(db, INSERT_SNAPSHOT).run(params)
  })()
}

/** A session joined with its connection's name, as the screens' queries read it: what the service
 *  said, raw. The core's app layer adds the verdicts (score on 0–100, health, alert). */
export interface SessionRow {
  connection_id: string
  connection_name: string
  event_session_id: string
  event_name: string | null
  content_id: string
  started_at: number
  updated_at: number
  has_ended: number
  viewers_count: number
  reliability_score: number
  cdn_traffic: number
  ecdn_traffic: number
  last_polled_at: number | null
}

const SELECT_SESSION = `
  SELECT s.connection_id, c.name AS connection_name, s.event_session_id, s.event_name, s.content_id,
    s.started_at, s.updated_at, s.has_ended, s.viewers_count, s.reliability_score, s.cdn_traffic,
    s.ecdn_traffic, s.last_polled_at
  FROM sessions s JOIN connections c ON c.id = s.connection_id`

const iso = (ms: number): string => new Date(ms).toISOString()

/** Live sessions now, oldest first: every connection's, or one connection's (index sessions_live). */
export function liveSessionRows(db: Db, connectionId?: string): SessionRow[] {
  return (
    connectionId === undefined
      ? statement(db, `${SELECT_SESSION} WHERE s.has_ended = 0 ORDER BY s.started_at`).all()
      : statement(db, `${SELECT_SESSION} WHERE s.has_ended = 0 AND s.connection_id = ? ORDER BY s.started_at`).all(connectionId)
  ) as SessionRow[]
}

export function sessionRow(db: Db, connectionId: string, eventSessionId: string): SessionRow | null {
  const row = statement(db, `${SELECT_SESSION} WHERE s.connection_id = ? AND s.event_session_id = ?`).get(connectionId, eventSessionId) as
    | SessionRow
    | undefined
  return row ?? null
}

/** The ids of the sessions the cache holds as live for one connection. */
export function liveSessionIds(db: Db, connectionId: string): string[] {
  const rows = statement(db, 'SELECT event_session_id AS id FROM sessions WHERE connection_id = ? AND has_ended = 0').all(
    connectionId
  ) as { id: string }[]
  return rows.map((r) => r.id)
}

/** The newest poll the cache holds (of one connection, or of all): "cached data as of …". */
export function newestPollAt(db: Db, connectionId?: string): number | null {
  const row = (
    connectionId === undefined
      ? statement(db, 'SELECT MAX(last_polled_at) AS at FROM sessions').get()
      : statement(db, 'SELECT MAX(last_polled_at) AS at FROM sessions WHERE connection_id = ?').get(connectionId)
  ) as { at: number | null }
  return row.at
}

/** What the alert rules need of a session: its name and whether it is still live. */
export interface SessionLiveness {
  id: string
  name: string | null
  ended: boolean
}

export function sessionLiveness(db: Db, connectionId: string, eventSessionId: string): SessionLiveness | null {
  const row = statement(
    db,
    'SELECT event_session_id AS id, event_name AS name, has_ended AS ended FROM sessions WHERE connection_id = ? AND event_session_id = ?'
  ).get(connectionId, eventSessionId) as { id: string; name: string | null; ended: number } | undefined
  return row ? { id: row.id, name: row.name, ended: row.ended === 1 } : null
}

export function countSessions(db: Db): { stored: number; live: number } {
  return statement(db, 'SELECT COUNT(*) AS stored, COALESCE(SUM(has_ended = 0), 0) AS live FROM sessions')
    .get() as { stored: number; live: number }
}

/** Every cached session (or just the one named) under the API's own field names (plus any extra
 *  fields it sent), oldest start first; `window`: at most `limit` of them from `offset`. */
export function exportSessions(
  db: Db,
  only?: { connectionId: string; eventSessionId: string },
  window?: { offset: number; limit: number }
): Record<string, unknown>[] {
  const where = only ? 'WHERE connection_id = @connectionId AND event_session_id = @eventSessionId' : ''
  const rows = statement(
    db,
    `SELECT raw_json, event_session_id, platform_id, tenant_id, content_id, event_name, started_at,
       updated_at, has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic
     FROM sessions ${where} ORDER BY started_at, event_session_id, connection_id ${window ? 'LIMIT @limit OFFSET @offset' : ''}`
  ).all({ ...only, ...window }) as (Omit<SessionRow, 'connection_id' | 'connection_name' | 'last_polled_at'> & {
    raw_json: string
    platform_id: string
    tenant_id: string
  })[]
  return rows.map((r) => ({
    ...(JSON.parse(r.raw_json) as Record<string, unknown>),
    eventSessionId: r.event_session_id,
    platformId: r.platform_id,
    tenantId: r.tenant_id,
    contentId: r.content_id,
    eventName: r.event_name,
    startedAt: iso(r.started_at),
    updatedAt: iso(r.updated_at),
    hasEnded: r.has_ended === 1,
    viewersCount: r.viewers_count,
    reliabilityScore: r.reliability_score,
    cdnTraffic: r.cdn_traffic,
    ecdnTraffic: r.ecdn_traffic
  }))
}

export interface SnapshotRow {
  takenAt: number
  viewersCount: number
  reliabilityScore: number
  cdnTraffic: number
  ecdnTraffic: number
}

/** A session's snapshots taken at or after `since`, oldest first: the alert rules' windows. */
export function snapshotsSince(db: Db, connectionId: string, eventSessionId: string, since: number): SnapshotRow[] {
  return statement(
    db,
    `SELECT taken_at AS takenAt, viewers_count AS viewersCount, reliability_score AS reliabilityScore,
       cdn_traffic AS cdnTraffic, ecdn_traffic AS ecdnTraffic
     FROM snapshots WHERE connection_id = ? AND event_session_id = ? AND taken_at >= ? ORDER BY taken_at`
  ).all(connectionId, eventSessionId, since) as SnapshotRow[]
}

/** A session's newest snapshot (index snapshots by session and time), or null before the first. */
export function latestSnapshot(db: Db, connectionId: string, eventSessionId: string): SnapshotRow | null {
  const row = statement(
    db,
    `SELECT taken_at AS takenAt, viewers_count AS viewersCount, reliability_score AS reliabilityScore,
       cdn_traffic AS cdnTraffic, ecdn_traffic AS ecdnTraffic
     FROM snapshots WHERE connection_id = ? AND event_session_id = ? ORDER BY taken_at DESC LIMIT 1`
  ).get(connectionId, eventSessionId) as SnapshotRow | undefined
  return row ?? null
}

export function listSnapshots(db: Db, connectionId: string, eventSessionId: string): SnapshotRow[] {
  return statement(
    db,
    `SELECT taken_at AS takenAt, viewers_count AS viewersCount, reliability_score AS reliabilityScore,
       cdn_traffic AS cdnTraffic, ecdn_traffic AS ecdnTraffic
     FROM snapshots WHERE connection_id = ? AND event_session_id = ? ORDER BY taken_at`
  ).all(connectionId, eventSessionId) as SnapshotRow[]
}
