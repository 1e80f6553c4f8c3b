// A session's viewers as the viewer table shows them: one page, sorted by any column, filtered
// by text and by the breakdown dimensions, with the total. Sorting by reliability reads the page
// off an index (viewers_by_reliability); other sorts and filters scan the session's viewers.
import type { Db } from '../db'
import { statement } from '../statements'
import type { Page } from './past-sessions'
import { containsPattern, direction, hasText, isoOrNull, pageBounds, tieDirection } from './sql'
import { CDN_ERROR_RATE, CONNECTION_TYPE, FIRST_CONNECTION, REBUFFERING_RATIO } from './viewer-sql'

export type ViewerSort =
  | 'viewerId'
  | 'deviceType'
  | 'os'
  | 'app'
  | 'siteCode'
  | 'connectionType'
  | 'publicIp'
  | 'reliabilityScore'
  | 'rebufferingEvents'
  | 'rebufferingTime'
  | 'viewingTime'
  | 'rebufferingRatio'
  | 'startedAt'
  | 'endedAt'
  | 'cdnTraffic'
  | 'ecdnTraffic'
  | 'cdnResponses'
  | 'cdnErrors'
  | 'cdnErrorRate'

/** Absent: no filter. null: only viewers for which the service did not say (a breakdown's "unknown"). */
export interface ViewerFilter {
  /** Part of the viewer id, device type, OS, app or the first connection's IP addresses. */
  text?: string
  siteCode?: number | null
  deviceType?: string | null
  os?: string | null
  app?: string | null
  connectionType?: string | null
  /** Only viewers still watching when the list was fetched: a start and no end (as viewer-story.ts counts them). */
  watching?: true
}

export interface ViewerPageQuery {
  sort: ViewerSort
  descending?: boolean
  filter?: ViewerFilter
  limit?: number
  offset?: number
}

export interface ViewerRow {
  viewerId: string
  deviceType: string | null
  os: string | null
  app: string | null
  /** Of the first network connection (see viewer-sql.ts). */
  siteCode: number | null
  connectionType: string | null
  publicIp: string | null
  privateIp: string | null
  reliabilityScore: number | null
  rebufferingEvents: number | null
  rebufferingTime: number | null
  viewingTime: number | null
  rebufferingRatio: number | null
  startedAt: string | null
  endedAt: string | null
  cdnTraffic: number | null
  ecdnTraffic: number | null
  cdnResponses: number | null
  cdnErrors: number | null
  cdnErrorRate: number | null
}

export interface ViewerPage extends Page<ViewerRow> {
  /** When the viewer list shown was fetched; null when the cache holds none. */
  fetchedAt: string | null
}

const TEXT_SORTS: ReadonlySet<ViewerSort> = new Set(['viewerId', 'deviceType', 'os', 'app', 'connectionType'])

/** How a backend's SQL says what the page sorts and filters by. */
export interface ViewerDialect {
  /** A text compared ignoring ASCII case (SQLite's NOCASE). */
  nocase(column: string): string
  /** A text compared byte by byte (SQLite's BINARY). */
  binary(column: string): string
  connectionType: string
  rebufferingRatio: string
  cdnErrorRate: string
  /** Joins a viewer `v` to its first network connection `vc`. */
  firstConnection: string
}

/** What each sort orders by, and what each equality filter compares (the filter and parameter name). */
export function viewerColumns(d: ViewerDialect): { sorts: Record<ViewerSort, string>; equals: [keyof Omit<ViewerFilter, 'text' | 'watching'>, string][] } {
  return {
    sorts: {
      viewerId: d.nocase('v.viewer_id'),
      deviceType: d.nocase('v.device_type'),
      os: d.nocase('v.os'),
      app: d.nocase('v.app'),
      siteCode: 'vc.site_code',
      connectionType: d.nocase(d.connectionType),
      // As text: groups addresses by their leading octets, which is what finding a subnet needs.
      publicIp: d.binary('vc.public_ip'),
      reliabilityScore: 'v.reliability_score',
      rebufferingEvents: 'v.rebuffering_events',
      rebufferingTime: 'v.rebuffering_time',
      viewingTime: 'v.viewing_time',
      rebufferingRatio: d.rebufferingRatio,
      startedAt: 'v.started_at',
      endedAt: 'v.ended_at',
      cdnTraffic: 'v.cdn_traffic',
      ecdnTraffic: 'v.ecdn_traffic',
      cdnResponses: 'v.cdn_responses',
      cdnErrors: 'v.cdn_errors',
      cdnErrorRate: d.cdnErrorRate
    },
    equals: [
      ['siteCode', 'vc.site_code'],
      ['deviceType', 'v.device_type'],
      ['os', 'v.os'],
      ['app', 'v.app'],
      ['connectionType', d.connectionType]
    ]
  }
}

/**
 * The conditions `filter` puts on the page's viewers, and whether they look at the
 * first connection. `param` names a value's placeholder; `textMatch` is the text filter's
 * condition, its pattern's placeholder given (containsPattern's, for LIKE … ESCAPE '\\').
 */
export function filterConditions(
  filter: ViewerFilter,
  equals: ReturnType<typeof viewerColumns>['equals'],
  param: (name: string, value: unknown) => string,
  textMatch: (pattern: string) => string
): { conditions: string[]; needsConnection: boolean } {
  const conditions: string[] = []
  let needsConnection = false
  for (const [name, column] of equals) {
    const value = filter[name]
    if (value === undefined) continue
    conditions.push(value === null ? `${column} IS NULL` : `${column} = ${param(name, value)}`)
    if (name === 'siteCode' || name === 'connectionType') needsConnection = true
  }
  if (filter.watching) conditions.push('v.started_at IS NOT NULL AND v.ended_at IS NULL')
  if (hasText(filter.text)) {
    conditions.push(textMatch(param('text', containsPattern(filter.text.trim()))))
    needsConnection = true
  }
  return { conditions, needsConnection }
}

/** The columns a text filter looks in. */
export const TEXT_FILTERED = ['v.viewer_id', 'v.device_type', 'v.os', 'v.app', 'vc.public_ip', 'vc.private_ip']

const SQLITE: ViewerDialect = {
  nocase: (column) => `${column} COLLATE NOCASE`,
  binary: (column) => column,
  connectionType: CONNECTION_TYPE,
  rebufferingRatio: REBUFFERING_RATIO,
  cdnErrorRate: CDN_ERROR_RATE,
  firstConnection: FIRST_CONNECTION
}
const { equals: EQUALS } = viewerColumns(SQLITE)

/** How the page's statement finds its rows again: a backend's row key and placeholders. */
export interface PageKeys {
  /** The viewer's key, unique in its list, in list order (the tie-breaker). */
  rowKey: string
  /** Joins `v` back to `page.row_key`. */
  joinBack: string
  /** What the outer query orders by (the page's sort key, as it compares). */
  outerKey: string
  limit: string
  offset: string
}

/**
 * The page's statement, in two steps: pick the page's rows by their sort key alone (joining the
 * first connection only when the sort or a filter needs it), then read the full rows of just that
 * page. Sorting the full rows would compute every column, JSON and join of every viewer of the session.
 */
export function pageStatement(d: ViewerDialect, q: ViewerPageQuery, where: string, needsConnection: boolean, keys: PageKeys): string {
  const sortKey = viewerColumns(d).sorts[q.sort]
  const joinForPage = needsConnection || q.sort === 'siteCode' || q.sort === 'connectionType' || q.sort === 'publicIp'
  const dir = direction(q.descending)
  const tie = tieDirection(q.descending)
  return `WITH page AS (
       SELECT ${keys.rowKey} AS row_key, ${sortKey} AS sort_key
       FROM viewers v ${joinForPage ? d.firstConnection : ''}
       ${where}
       ORDER BY ${sortKey} ${dir}, ${keys.rowKey} ${tie}
       LIMIT ${keys.limit} OFFSET ${keys.offset}
     )
     SELECT v.viewer_id, v.device_type, v.os, v.app, vc.site_code, ${d.connectionType} AS connection_type,
       vc.public_ip, vc.private_ip, v.reliability_score, v.rebuffering_events, v.rebuffering_time, v.viewing_time,
       ${d.rebufferingRatio} AS rebuffering_ratio, v.started_at, v.ended_at, v.cdn_traffic, v.ecdn_traffic,
       v.cdn_responses, v.cdn_errors, ${d.cdnErrorRate} AS cdn_error_rate
     FROM page JOIN viewers v ON ${keys.joinBack} ${d.firstConnection}
     ORDER BY ${keys.outerKey} ${dir}, page.row_key ${tie}`
}

const TEXT_MATCH = `(${TEXT_FILTERED
  .map((c) => `${c} LIKE @text ESCAPE '\\'`)
  .join(' OR ')})`

/** A page's row as both backends' queries select it. */
export interface ViewerPageRow {
  viewer_id: string
  device_type: string | null
  os: string | null
  app: string | null
  site_code: number | null
  connection_type: string | null
  public_ip: string | null
  private_ip: string | null
  reliability_score: number | null
  rebuffering_events: number | null
  rebuffering_time: number | null
  viewing_time: number | null
  rebuffering_ratio: number | null
  started_at: number | null
  ended_at: number | null
  cdn_traffic: number | null
  ecdn_traffic: number | null
  cdn_responses: number | null
  cdn_errors: number | null
  cdn_error_rate: number | null
}

export function viewerPage(db: Db, connectionId: string, sessionId: string, q: ViewerPageQuery): ViewerPage {
  const { limit, offset } = pageBounds(q.limit, q.offset)
  const filter = q.filter ?? {}
  const list = statement(db, 'SELECT id, fetched_at FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL').get(
    connectionId,
    sessionId
  ) as { id: number; fetched_at: number } | undefined
  if (!list) return { rows: [], total: 0, fetchedAt: null }
  const params: Record<string, unknown> = { listId: list.id }
  const { conditions, needsConnection } = filterConditions(filter, EQUALS, (name, value) => {
    params[name] = value
    return `@${name}`
  }, () => TEXT_MATCH)
  const where = `WHERE ${['v.list_id = @listId', ...conditions].join(' AND ')}`

  // The count joins the first connection only when a filter looks at it.
  const { total } = statement(db, `SELECT COUNT(*) AS total FROM viewers v ${needsConnection ? FIRST_CONNECTION : ''} ${where}`).get(
    params
  ) as { total: number }
  const fetchedAt = isoOrNull(list.fetched_at)
  if (total === 0 || limit === 0) return { rows: [], total, fetchedAt }

  const rows = statement(
    db,
    pageStatement(SQLITE, q, where, needsConnection, {
      rowKey: 'v.id',
      joinBack: 'v.id = page.row_key',
      outerKey: TEXT_SORTS.has(q.sort) ? 'page.sort_key COLLATE NOCASE' : 'page.sort_key',
      limit: '@limit',
      offset: '@offset'
    })
  ).all({ ...params, limit, offset }) as ViewerPageRow[]
  return { rows: rows.map(toViewerRow), total, fetchedAt }
}

export function toViewerRow(r: ViewerPageRow): ViewerRow {
  return {
    viewerId: r.viewer_id,
    deviceType: r.device_type,
    os: r.os,
    app: r.app,
    siteCode: r.site_code,
    connectionType: r.connection_type,
    publicIp: r.public_ip,
    privateIp: r.private_ip,
    reliabilityScore: r.reliability_score,
    rebufferingEvents: r.rebuffering_events,
    rebufferingTime: r.rebuffering_time,
    viewingTime: r.viewing_time,
    rebufferingRatio: r.rebuffering_ratio,
    startedAt: isoOrNull(r.started_at),
    endedAt: isoOrNull(r.ended_at),
    cdnTraffic: r.cdn_traffic,
    ecdnTraffic: r.ecdn_traffic,
    cdnResponses: r.cdn_responses,
    cdnErrors: r.cdn_errors,
    cdnErrorRate: r.cdn_error_rate
  }
}
