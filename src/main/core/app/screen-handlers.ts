// The operator's screens' requests: named queries over the cache only, so every one of them
// works offline. Arguments are validated by the contract before they get here.
import type { Db } from '../store/db'
import { exportChunk, viewerDetail } from '../store/export-chunks'
import { breakdown, pastSessions, snapshotsForChart, viewerPage } from '../store/queries'
import { isoOrNull } from '../store/queries/sql'
import { statement } from '../store/statements'
import type { Handlers } from './dispatch'

type ScreenHandlers = Pick<Handlers, 'sessionChart' | 'viewerPage' | 'viewerDetail' | 'breakdown' | 'pastSessions' | 'exportChunk'>

const ms = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso))

/** The newest poll the cache holds: what "cached data as of …" means. */
function cachedAsOf(db: Db): string | null {
  const { at } = statement(db, 'SELECT MAX(last_polled_at) AS at FROM sessions').get() as { at: number | null }
  return isoOrNull(at)
}

export function screenHandlers(db: Db): ScreenHandlers {
  return {
    sessionChart: ({ connectionId, eventSessionId, from, maxPoints }) =>
      snapshotsForChart(db, connectionId, eventSessionId, { from: ms(from), maxPoints }),
    viewerPage: ({ connectionId, eventSessionId, ...query }) => viewerPage(db, connectionId, eventSessionId, query),
    viewerDetail: ({ connectionId, eventSessionId, viewerId }) => viewerDetail(db, connectionId, eventSessionId, viewerId),
    breakdown: ({ connectionId, eventSessionId, dimension }) => breakdown(db, connectionId, eventSessionId, dimension),
    pastSessions: ({ from, to, ...query }) => ({ ...pastSessions(db, { ...query, from: ms(from), to: ms(to) }), cachedAsOf: cachedAsOf(db) }),
    exportChunk: (query) => exportChunk(db, query)
  }
}
