// The past-sessions screen: ended sessions (optionally live ones too), one connection or all,
// searched by name or id, within a start-time window, sorted and paged, with the total.
// The SQL is assembled from fixed fragments only (no caller text reaches it): one prepared
// statement per shape, so the planner picks the index for each (see migration 003).
import type { Db } from '../db'
import { statement } from '../statements'
import { containsPattern, direction, hasText, iso, isoOrNull, pageBounds, tieDirection } from './sql'
import type { SessionRow } from '../sessions'

export type PastSessionSort = 'started' | 'name' | 'viewers' | 'reliability'

export interface PastSessionsQuery {
  /** One connection's sessions; all connections when absent (each row names its own). */
  connectionId?: string
  /** Part of the event name, the session id or the content id (ASCII case-insensitive). */
  search?: string
  /** Sessions that started at or after this instant (ms since epoch, UTC). */
  from?: number
  /** Sessions that started before this instant (ms since epoch, UTC). */
  to?: number
  sort: PastSessionSort
  descending?: boolean
  /** Live sessions are on the live screen; include them here too when true. */
  includeLive?: boolean
  /** Leave out the demo simulator's sessions (a real connection is polled: its data stays apart). */
  excludeDemo?: boolean
  /** Connections whose scores are on 0–1: sorting by reliability across connections puts them
   *  on 0–100 first, so two scales never interleave wrongly. */
  scaledConnectionIds?: readonly string[]
  limit?: number
  offset?: number
}

export interface PastSession {
  connectionId: string
  connectionName: string
  eventSessionId: string
  eventName: string | null
  contentId: string
  startedAt: string
  updatedAt: string
  hasEnded: boolean
  /** When this cache first saw it ended (not the service's end time, which the API lacks). */
  endedObservedAt: string | null
  firstSeenAt: string
  lastPolledAt: string
  /** The service's last viewersCount (0 once a session has ended). */
  viewersCount: number
  /** The highest viewersCount the cache saw: what "sort by viewers" uses. */
  peakViewers: number
  reliabilityScore: number
  cdnTraffic: number
  ecdnTraffic: number
  /** Viewers in the cached viewer list; null when none is cached. */
  viewerListCount: number | null
  viewerListFetchedAt: string | null
  /** Where peakViewers comes from: the viewer list (reconstructed, with when) or polls made while it was live; null when nothing is known. */
  peakSource: 'viewers' | 'polls' | null
  peakAt: string | null
  /** With a peak from the viewer list: its viewers without usable times, left out of it. */
  peakUntimed: number | null
  /** When an ended session ended, best known first: its viewers' last endedAt, the service's last
   *  update of the record, or when the cache first saw it ended. Null while live. */
  endedAt: string | null
  endedAtSource: 'viewers' | 'service' | 'observed' | null
}

export interface Page<T> {
  rows: T[]
  /** Rows matching the query, all pages together. */
  total: number
}

const SORT_COLUMNS: Record<PastSessionSort, string> = {
  started: 's.started_at',
  name: 's.event_name COLLATE NOCASE',
  viewers: 's.peak_viewers',
  reliability: 's.reliability_score'
}

/** A row as the page's query reads it (either backend's: has_ended as 0/1). */
export interface PastSessionRow extends SessionRow {
  ended_observed_at: number | null
  first_seen_at: number
  last_polled_at: number
  peak_viewers: number
  viewer_count: number | null
  fetched_at: number | null
  list_peak: number | null
  list_peak_at: number | null
  list_untimed: number | null
  last_ended_at: number | null
}

/**
 * Ties broken as the sort's index keeps them: by start time or name, then search_text (which ends
 * in the session id, so it is unique within a connection), then rowid. An ORDER BY the index can
 * serve lets a search walk it in order and stop at the page, instead of sorting every match.
 */
function tieBreak(sort: PastSessionSort, descending: boolean | undefined): string {
  const dir = tieDirection(descending)
  return sort === 'started' || sort === 'name' ? `s.search_text ${dir}, s.rowid ${dir}` : `s.rowid ${dir}`
}

/** The sort's expression: the plain column (an index serves it) unless reliability spans scales. */
function sortExpression(q: PastSessionsQuery): string {
  if (q.sort === 'reliability' && q.connectionId === undefined && (q.scaledConnectionIds?.length ?? 0) > 0) {
    return 's.reliability_score * (CASE WHEN s.connection_id IN (SELECT value FROM json_each(@scaled)) THEN 100 ELSE 1 END)'
  }
  return SORT_COLUMNS[q.sort]
}

function whereClause(q: PastSessionsQuery): string {
  const parts: string[] = []
  if (!q.includeLive) parts.push('s.has_ended = 1')
  if (q.excludeDemo) parts.push('s.connection_id NOT IN (SELECT id FROM connections WHERE is_demo = 1)')
  if (q.connectionId !== undefined) parts.push('s.connection_id = @connectionId')
  if (q.from !== undefined) parts.push('s.started_at >= @from')
  if (q.to !== undefined) parts.push('s.started_at < @to')
  if (hasText(q.search)) {
    // Name, content id and session id in one column (migration 6).
    parts.push(`s.search_text LIKE @search ESCAPE '\\'`)
  }
  return parts.length ? `WHERE ${parts.join(' AND ')}` : ''
}

export function pastSessions(db: Db, q: PastSessionsQuery): Page<PastSession> {
  const { limit, offset } = pageBounds(q.limit, q.offset)
  const where = whereClause(q)
  const params: Record<string, unknown> = {}
  if (q.connectionId !== undefined) params.connectionId = q.connectionId
  if (q.from !== undefined) params.from = q.from
  if (q.to !== undefined) params.to = q.to
  if (hasText(q.search)) params.search = containsPattern(q.search.trim())
  const sort = sortExpression(q)

  const count = (): number => (statement(db, `SELECT COUNT(*) AS total FROM sessions s ${where}`).get(params) as { total: number }).total
  if (limit === 0) return { rows: [], total: count() }

  // rowid breaks ties: stable paging, and it is the order an index keeps equal keys in.
  const rows = statement(
    db,
    `SELECT s.connection_id, c.name AS connection_name, s.event_session_id, s.event_name, s.content_id,
       s.started_at, s.updated_at, s.has_ended, s.ended_observed_at, s.first_seen_at, s.last_polled_at,
       s.viewers_count, s.peak_viewers, s.reliability_score, s.cdn_traffic, s.ecdn_traffic,
       vl.viewer_count, vl.fetched_at, vl.peak_viewers AS list_peak, vl.peak_at AS list_peak_at,
       vl.untimed_viewers AS list_untimed, vl.last_ended_at
     FROM sessions s
     JOIN connections c ON c.id = s.connection_id
     LEFT JOIN viewer_lists vl ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL
     ${where}
     ORDER BY ${sort} ${direction(q.descending)}, ${tieBreak(q.sort, q.descending)}
     LIMIT @limit OFFSET @offset`
  ).all({ ...params, limit, offset, ...(sort === SORT_COLUMNS[q.sort] ? {} : { scaled: JSON.stringify(q.scaledConnectionIds) }) }) as PastSessionRow[]
  // A short page is the last one, and says the total itself: a search that matches little (the
  // slowest kind: every row is tested) then scans once, not twice.
  const lastPage = rows.length < limit && (rows.length > 0 || offset === 0)
  return { rows: rows.map(toPastSession), total: lastPage ? offset + rows.length : count() }
}

export function toPastSession(r: PastSessionRow): PastSession {
  return {
    connectionId: r.connection_id,
    connectionName: r.connection_name,
    eventSessionId: r.event_session_id,
    eventName: r.event_name,
    contentId: r.content_id,
    startedAt: iso(r.started_at),
    updatedAt: iso(r.updated_at),
    hasEnded: r.has_ended === 1,
    endedObservedAt: isoOrNull(r.ended_observed_at),
    firstSeenAt: iso(r.first_seen_at),
    lastPolledAt: iso(r.last_polled_at),
    viewersCount: r.viewers_count,
    peakViewers: r.peak_viewers,
    reliabilityScore: r.reliability_score,
    cdnTraffic: r.cdn_traffic,
    ecdnTraffic: r.ecdn_traffic,
    viewerListCount: r.viewer_count,
    viewerListFetchedAt: isoOrNull(r.fetched_at),
    ...peakOf(r),
    ...endOf(r)
  }
}

/**
 * The list's reconstructed peak when it is the highest known (it raised peak_viewers), else the
 * polls': peak_viewers only ever counts polls made while the session was live (sessions.ts), so a
 * session first seen after its end has no poll peak, only its viewers'.
 */
function peakOf(r: PastSessionRow): Pick<PastSession, 'peakSource' | 'peakAt' | 'peakUntimed'> {
  if (r.list_peak !== null && r.list_peak >= r.peak_viewers) {
    return { peakSource: 'viewers', peakAt: isoOrNull(r.list_peak_at), peakUntimed: r.list_untimed ?? 0 }
  }
  return { peakSource: r.peak_viewers > 0 ? 'polls' : null, peakAt: null, peakUntimed: null }
}

/** A list fetched while the session was live says nothing of its end: only one fetched after counts. */
function endOf(r: PastSessionRow): Pick<PastSession, 'endedAt' | 'endedAtSource'> {
  if (r.has_ended !== 1) return { endedAt: null, endedAtSource: null }
  const listAfterEnd = r.fetched_at !== null && r.ended_observed_at !== null && r.fetched_at >= r.ended_observed_at
  if (listAfterEnd && r.last_ended_at !== null) return { endedAt: iso(r.last_ended_at), endedAtSource: 'viewers' }
  if (r.updated_at >= r.started_at) return { endedAt: iso(r.updated_at), endedAtSource: 'service' }
  return r.ended_observed_at === null ? { endedAt: null, endedAtSource: null } : { endedAt: iso(r.ended_observed_at), endedAtSource: 'observed' }
}
