// A session's viewers as the viewer table shows them, on PostgreSQL: queries/viewer-page.ts's page
// in PostgreSQL's dialect, with the same answers (SQLite's NOCASE and BINARY orders, its LIKE that
// ignores ASCII case only: viewer-sql.ts). Ties are broken by the viewer's place in its list, as
// SQLite breaks them by id, which it gives in list order.
import { filterConditions, pageStatement, TEXT_FILTERED, toViewerRow, viewerColumns, type ViewerDialect, type ViewerPage, type ViewerPageQuery, type ViewerPageRow } from '../queries/viewer-page'
import { isoOrNull, pageBounds } from '../queries/sql'
import { all, one, parameters, type Sql } from './sql'
import { BINARY, CDN_ERROR_RATE, CONNECTION_TYPE, FIRST_CONNECTION, HELD_LIST, NOCASE, REBUFFERING_RATIO } from './viewer-sql'

const POSTGRES: ViewerDialect = {
  nocase: NOCASE,
  binary: BINARY,
  connectionType: CONNECTION_TYPE,
  rebufferingRatio: REBUFFERING_RATIO,
  cdnErrorRate: CDN_ERROR_RATE,
  firstConnection: FIRST_CONNECTION
}
const { equals: EQUALS } = viewerColumns(POSTGRES)

export async function viewerPage(read: Sql, connectionId: string, sessionId: string, q: ViewerPageQuery): Promise<ViewerPage> {
  const { limit, offset } = pageBounds(q.limit, q.offset)
  const filter = q.filter ?? {}
  const list = await one<{ id: number; fetched_at: number }>(read, `SELECT id, fetched_at ${HELD_LIST}`, [connectionId, sessionId])
  if (!list) return { rows: [], total: 0, fetchedAt: null }
  const p = parameters()
  const listId = p.add(list.id)
  const { conditions, needsConnection } = filterConditions(filter, EQUALS, (_, value) => p.add(value), (pattern) =>
    `(${TEXT_FILTERED.map((c) => `${BINARY(c)} ILIKE ${pattern} ESCAPE '\\'`).join(' OR ')})`
  )
  const where = `WHERE ${[`v.list_id = ${listId}`, ...conditions].join(' AND ')}`
  const filters = [...p.values]

  // The count joins the first connection only when a filter looks at it.
  const { total } = (await one<{ total: number }>(read, `SELECT count(*) AS total FROM viewers v ${needsConnection ? FIRST_CONNECTION : ''} ${where}`, filters))!
  const fetchedAt = isoOrNull(list.fetched_at)
  if (total === 0 || limit === 0) return { rows: [], total, fetchedAt }

  const rows = await all<ViewerPageRow>(
    read,
    pageStatement(POSTGRES, q, where, needsConnection, {
      rowKey: 'v.ordinal',
      joinBack: `v.list_id = ${listId} AND v.ordinal = page.row_key`,
      // Already as it compares (lower() under "C", or a number).
      outerKey: 'page.sort_key',
      limit: p.add(limit),
      offset: p.add(offset)
    }),
    p.values
  )
  return { rows: rows.map(toViewerRow), total, fetchedAt }
}
