// What the site rule reads: per site of a session's newest viewer list, its viewers and their
// mean reliability on 0–100 (by the connection's scale, app/verdicts.ts: viewers are assumed to
// report on the same scale as their session). The site breakdown the drill-down shows, kept with the list.
import type { Db } from '../store/db'
import { breakdown } from '../store/queries/breakdown'
import { statement } from '../store/statements'
import type { SiteSample } from './engine'

/** When the session's complete viewer list was fetched, or null when none is held. */
export function viewerListFetchedAt(db: Db, connectionId: string, eventSessionId: string): number | null {
  const row = statement(
    db,
    'SELECT fetched_at AS at FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL'
  ).get(connectionId, eventSessionId) as { at: number } | undefined
  return row?.at ?? null
}

/** `score`: a reliabilityScore as reported, on 0–100 (Verdicts.score of the session's connection). */
export function siteSamples(db: Db, connectionId: string, eventSessionId: string, score: (raw: number) => number | null): SiteSample[] {
  return breakdown(db, connectionId, eventSessionId, 'site')
    .filter((row) => row.key !== null)
    .map((row) => ({
      site: row.key as string,
      viewers: row.viewers,
      reliability: row.avgReliability === null ? null : score(row.avgReliability)
    }))
}
