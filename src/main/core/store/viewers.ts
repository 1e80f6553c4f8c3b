// A session's latest viewer list, replaced whole or not at all. Lists arrive page by page
// (viewer-staging.ts); storeViewerList writes a list in hand in one transaction.
import type { ViewerRecord } from '../api/schemas'
import type { Db } from './db'
import { emptyBreakdownSums } from './queries/breakdown'
import { statement } from './statements'
import { beginStagedList, commitStagedList, stagePage } from './viewer-staging'
import { viewerListRows } from './viewer-rows'

/** Replaces the session's viewer list with `viewers`, in one transaction. */
export function storeViewerList(
  db: Db,
  connectionId: string,
  eventSessionId: string,
  viewers: readonly ViewerRecord[],
  fetchedAt: number,
  pages: number
): void {
  db.transaction(() => {
    const listId = beginStagedList(db, connectionId, eventSessionId, fetchedAt)
    const sums = emptyBreakdownSums()
    stagePage(db, listId, viewerListRows(viewers), fetchedAt, sums)
    commitStagedList(db, listId, { fetchedAt, pages, dedupe: false, sums })
  })()
}

/** Sessions of a connection whose complete viewer list the cache holds. */
export function sessionsWithViewerLists(db: Db, connectionId: string): Set<string> {
  const rows = statement(db, 'SELECT event_session_id AS id FROM viewer_lists WHERE connection_id = ? AND staged_at IS NULL').all(
    connectionId
  ) as { id: string }[]
  return new Set(rows.map((r) => r.id))
}

/** A viewer sample for the unit detection (units.ts). */
/** When the session's complete viewer list was fetched, or null when none is held. */
export function viewerListFetchedAt(db: Db, connectionId: string, eventSessionId: string): number | null {
  const row = statement(
    db,
    'SELECT fetched_at AS at FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL'
  ).get(connectionId, eventSessionId) as { at: number } | undefined
  return row?.at ?? null
}

export interface ViewerSample {
  viewing: number
  spanMs: number
  traffic: number
}

/** Viewers sampled for the time and traffic units: enough to be sure, cheap at any cache size. */
const UNIT_SAMPLE = 500

export function viewerUnitSample(db: Db): ViewerSample[] {
  return statement(
    db,
    `SELECT viewing_time AS viewing, ended_at - started_at AS spanMs, COALESCE(cdn_traffic, 0) + COALESCE(ecdn_traffic, 0) AS traffic
     FROM viewers
     WHERE viewing_time > 0 AND started_at IS NOT NULL AND ended_at > started_at
     LIMIT ${UNIT_SAMPLE}`
  ).all() as ViewerSample[]
}
