// The sessions and snapshots of a Tx on PostgreSQL: store/sessions.ts's queries in PostgreSQL's
// dialect. Rows keep SQLite's shape (has_ended as 0/1: SessionRow is the screens' input). The
// past sessions' page is past-sessions.ts; the snapshots' reads, snapshot-reads.ts.
import { pageBounds } from '../queries/sql'
import type { EventSessionRecord } from '../../api/schemas'
import type { SessionRow, SessionStore } from '../interface/sessions'
import { pastSessions } from './past-sessions'
import { all, one, type Runners, type Sql } from './sql'

// ended_observed_at: when the cache first saw the session ended; peak_viewers: the highest count a
// poll saw while it was live (store/sessions.ts says why). An older record never replaces a newer.
const UPSERT_SESSION = `
  INSERT INTO sessions (connection_id, event_session_id, platform_id, tenant_id, content_id, event_name,
    started_at, updated_at, has_ended, viewers_count, reliability_score, cdn_traffic, ecdn_traffic,
    raw_json, first_seen_at, last_polled_at, ended_observed_at, peak_viewers)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $15,
    CASE WHEN $9 THEN $15::bigint END, CASE WHEN $9 THEN 0 ELSE $10::double precision END)
  ON CONFLICT (connection_id, event_session_id) DO UPDATE SET
    platform_id = excluded.platform_id, tenant_id = excluded.tenant_id, content_id = excluded.content_id,
    event_name = excluded.event_name, started_at = excluded.started_at, updated_at = excluded.updated_at,
    has_ended = excluded.has_ended, viewers_count = excluded.viewers_count,
    reliability_score = excluded.reliability_score, cdn_traffic = excluded.cdn_traffic,
    ecdn_traffic = excluded.ecdn_traffic, raw_json = excluded.raw_json, last_polled_at = excluded.last_polled_at,
    ended_observed_at = CASE WHEN excluded.has_ended THEN COALESCE(sessions.ended_observed_at, excluded.ended_observed_at) END,
    peak_viewers = GREATEST(sessions.peak_viewers, excluded.peak_viewers)
  WHERE excluded.updated_at >= sessions.updated_at`

const INSERT_SNAPSHOT = `
  INSERT INTO snapshots (connection_id, event_session_id, taken_at, viewers_count, reliability_score, cdn_traffic, ecdn_traffic)
  VALUES ($1, $2, $3, $4, $5, $6, $7)`

const sessionValues = (connectionId: string, r: EventSessionRecord, polledAt: number): unknown[] => [
  connectionId,
  r.eventSessionId,
  r.platformId,
  r.tenantId,
  r.contentId,
  r.eventName ?? null,
  Date.parse(r.startedAt),
  Date.parse(r.updatedAt),
  r.hasEnded,
  Math.round(r.viewersCount),
  r.reliabilityScore,
  Math.round(r.cdnTraffic),
  Math.round(r.ecdnTraffic),
  // The record as received, so fields the service adds later are not lost.
  JSON.stringify(r),
  polledAt
]

const SELECT_SESSION = `
  SELECT s.connection_id, c.name AS connection_name, s.event_session_id, s.event_name, s.content_id,
    s.started_at, s.updated_at, s.has_ended::int AS has_ended, s.viewers_count, s.reliability_score, s.cdn_traffic,
    s.ecdn_traffic, s.last_polled_at
  FROM sessions s JOIN connections c ON c.id = s.connection_id`

interface ExportedRow {
  raw_json: Record<string, unknown>
  event_session_id: string
  platform_id: string
  tenant_id: string
  content_id: string
  event_name: string | null
  started_at: number
  updated_at: number
  has_ended: boolean
  viewers_count: number
  reliability_score: number
  cdn_traffic: number
  ecdn_traffic: number
}

const iso = (ms: number): string => new Date(ms).toISOString()

const SELECT_EXPORTED = `SELECT raw_json, event_session_id, platform_id, tenant_id, content_id, event_name, started_at, updated_at, has_ended,
    viewers_count, reliability_score, cdn_traffic, ecdn_traffic
  FROM sessions`

/** Under the API's own field names, plus any extra fields it sent. */
const exported = (r: ExportedRow): Record<string, unknown> => ({
  ...r.raw_json,
  eventSessionId: r.event_session_id,
  platformId: r.platform_id,
  tenantId: r.tenant_id,
  contentId: r.content_id,
  eventName: r.event_name,
  startedAt: iso(r.started_at),
  updatedAt: iso(r.updated_at),
  hasEnded: r.has_ended,
  viewersCount: r.viewers_count,
  reliabilityScore: r.reliability_score,
  cdnTraffic: r.cdn_traffic,
  ecdnTraffic: r.ecdn_traffic
})

async function storeList(sql: Sql, connectionId: string, records: EventSessionRecord[], polledAt: number): Promise<void> {
  for (const r of records) await sql(UPSERT_SESSION, sessionValues(connectionId, r, polledAt))
}

export function sessionTable({ read, write }: Runners): SessionStore {
  return {
    live: (c) =>
      c === undefined
        ? all<SessionRow>(read, `${SELECT_SESSION} WHERE NOT s.has_ended ORDER BY s.started_at`)
        : all<SessionRow>(read, `${SELECT_SESSION} WHERE NOT s.has_ended AND s.connection_id = $1 ORDER BY s.started_at`, [c]),
    row: (c, s) => one<SessionRow>(read, `${SELECT_SESSION} WHERE s.connection_id = $1 AND s.event_session_id = $2`, [c, s]),
    liveIds: async (c) => (await all<{ id: string }>(read, 'SELECT event_session_id AS id FROM sessions WHERE connection_id = $1 AND NOT has_ended', [c])).map((r) => r.id),
    async newestPollAt(c) {
      const row =
        c === undefined
          ? await one<{ at: number | null }>(read, 'SELECT max(last_polled_at) AS at FROM sessions')
          : await one<{ at: number | null }>(read, 'SELECT max(last_polled_at) AS at FROM sessions WHERE connection_id = $1', [c])
      return row?.at ?? null
    },
    past: (q) => pastSessions(read, q),
    counts: async () =>
      (await one<{ stored: number; live: number }>(read, 'SELECT count(*) AS stored, count(*) FILTER (WHERE NOT has_ended) AS live FROM sessions')) ?? {
        stored: 0,
        live: 0
      },
    async exported(c, s) {
      const row = await one<ExportedRow>(read, `${SELECT_EXPORTED} WHERE connection_id = $1 AND event_session_id = $2`, [c, s])
      return row ? exported(row) : null
    },
    async exportedPage(q) {
      const { limit, offset } = pageBounds(q.limit, q.offset)
      const rows = await all<ExportedRow>(read, `${SELECT_EXPORTED} ORDER BY started_at, event_session_id, connection_id LIMIT $1 OFFSET $2`, [limit, offset])
      return rows.map(exported)
    },
    storeList: (c, records, at) => storeList(write, c, records, at),
    async storeSnapshot(c, record, at) {
      const values = sessionValues(c, record, at)
      await write(UPSERT_SESSION, values)
      await write(INSERT_SNAPSHOT, [c, record.eventSessionId, at, values[9], values[10], values[11], values[12]])
    }
  }
}
