// The past-sessions screen's page on PostgreSQL: queries/past-sessions.ts's query in PostgreSQL's
// dialect (ILIKE for SQLite's ASCII-case-blind LIKE, lower() for NOCASE, the primary key where
// SQLite breaks ties by rowid). Rows map to the screen's shape as there (toPastSession).
import { toPastSession, type Page, type PastSession, type PastSessionRow, type PastSessionSort, type PastSessionsQuery } from '../queries/past-sessions'
import { containsPattern, direction, hasText, pageBounds, tieDirection } from '../queries/sql'
import { all, one, parameters, type Sql } from './sql'

const SORT_COLUMNS: Record<PastSessionSort, string> = {
  started: 's.started_at',
  name: 'lower(s.event_name)',
  viewers: 's.peak_viewers',
  reliability: 's.reliability_score'
}

/** Ties broken by search_text (it ends in the session id) for the sorts that keep it, then the key. */
function tieBreak(sort: PastSessionSort, descending: boolean | undefined): string {
  const dir = tieDirection(descending)
  const key = `s.connection_id ${dir}, s.event_session_id ${dir}`
  return sort === 'started' || sort === 'name' ? `s.search_text ${dir}, ${key}` : key
}

export async function pastSessions(read: Sql, q: PastSessionsQuery): Promise<Page<PastSession>> {
  const { limit, offset } = pageBounds(q.limit, q.offset)
  const p = parameters()
  const parts: string[] = []
  if (!q.includeLive) parts.push('s.has_ended')
  if (q.excludeDemo) parts.push('s.connection_id NOT IN (SELECT id FROM connections WHERE is_demo)')
  if (q.connectionId !== undefined) parts.push(`s.connection_id = ${p.add(q.connectionId)}`)
  if (q.from !== undefined) parts.push(`s.started_at >= ${p.add(q.from)}`)
  if (q.to !== undefined) parts.push(`s.started_at < ${p.add(q.to)}`)
  // Name, content id and session id in one column; ILIKE: SQLite's LIKE ignores ASCII case too.
  if (hasText(q.search)) parts.push(`s.search_text ILIKE ${p.add(containsPattern(q.search.trim()))} ESCAPE '\\'`)
  const where = parts.length ? `WHERE ${parts.join(' AND ')}` : ''
  const filters = [...p.values]

  const count = async (): Promise<number> => (await one<{ total: number }>(read, `SELECT count(*) AS total FROM sessions s ${where}`, filters))!.total
  if (limit === 0) return { rows: [], total: await count() }

  // Reliability across connections on two scales: those on 0–1 are put on 0–100 first.
  const scaled = q.sort === 'reliability' && q.connectionId === undefined && (q.scaledConnectionIds?.length ?? 0) > 0
  const sort = scaled
    ? `s.reliability_score * (CASE WHEN s.connection_id = ANY(${p.add(q.scaledConnectionIds)}::text[]) THEN 100 ELSE 1 END)`
    : SORT_COLUMNS[q.sort]
  const rows = await all<PastSessionRow>(
    read,
    `SELECT s.connection_id, c.name AS connection_name, s.event_session_id, s.event_name, s.content_id,
       s.started_at, s.updated_at, s.has_ended::int AS has_ended, s.ended_observed_at, s.first_seen_at, s.last_polled_at,
       s.viewers_count, s.peak_viewers, s.reliability_score, s.cdn_traffic, s.ecdn_traffic,
       vl.viewer_count, vl.fetched_at, vl.peak_viewers AS list_peak, vl.peak_at AS list_peak_at,
       vl.untimed_viewers AS list_untimed, vl.last_ended_at
     FROM sessions s
     JOIN connections c ON c.id = s.connection_id
     LEFT JOIN viewer_lists vl ON vl.connection_id = s.connection_id AND vl.event_session_id = s.event_session_id AND vl.staged_at IS NULL
     ${where}
     ORDER BY ${sort} ${direction(q.descending)}, ${tieBreak(q.sort, q.descending)}
     LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`,
    p.values
  )
  // A short page is the last one, and says the total itself (one scan, not two).
  const lastPage = rows.length < limit && (rows.length > 0 || offset === 0)
  return { rows: rows.map(toPastSession), total: lastPage ? offset + rows.length : await count() }
}
