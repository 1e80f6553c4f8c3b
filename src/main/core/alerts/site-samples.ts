// What the site rule reads: per site of a session's newest viewer list, its viewers and their
// mean reliability on 0–100 (by the connection's scale, app/verdicts.ts: viewers are assumed to
// report on the same scale as their session). The site breakdown the drill-down shows, kept with the list.
import type { BreakdownRow } from '../store/queries/breakdown'
import type { ViewerReads } from '../store/interface/viewers'
import type { SiteSample } from './engine'

/** `score`: a reliabilityScore as reported, on 0–100 (Verdicts.score of the session's connection). */
export async function siteSamples(
  viewers: ViewerReads,
  connectionId: string,
  eventSessionId: string,
  score: (raw: number) => number | null
): Promise<SiteSample[]> {
  return siteSamplesOf(await viewers.breakdown(connectionId, eventSessionId, 'site'), score)
}

/** The samples of a session's site breakdown as read. */
export function siteSamplesOf(rows: readonly BreakdownRow[], score: (raw: number) => number | null): SiteSample[] {
  return rows
    .filter((row) => row.key !== null)
    .map((row) => ({
      site: row.key as string,
      viewers: row.viewers,
      reliability: row.avgReliability === null ? null : score(row.avgReliability)
    }))
}
