// The viewers concern on PostgreSQL: stored viewer lists, read a page at a time, with SQLite's
// answers (interface/viewers.ts). Only a held list is read (staged_at IS NULL); its rows are read by
// its id, so a read that found a list goes on reading that list even if a newer one is swapped in
// meanwhile (a dropped list's rows stay until they are purged: viewer-purge.ts).
import type { ViewerReads } from '../interface/viewers'
import type { ViewerSample } from '../viewers'
import { all, one, type Runners } from './sql'
import { breakdown } from './viewer-breakdowns'
import { viewerPage } from './viewer-page'
import { HELD_LIST } from './viewer-sql'
import { viewerStory } from './viewer-story'
import { viewerDetail, viewerExportWindow } from './viewer-window'

/** Viewers sampled for the time and traffic units: enough to be sure, cheap at any size (as viewers.ts). */
const UNIT_SAMPLE = 500

export function viewerReads({ read }: Runners): ViewerReads {
  return {
    async sessionsWithLists(connectionId) {
      const rows = await all<{ id: string }>(read, 'SELECT event_session_id AS id FROM viewer_lists WHERE connection_id = $1 AND staged_at IS NULL', [connectionId])
      return new Set(rows.map((r) => r.id))
    },
    listFetchedAt: async (c, s) => (await one<{ at: number }>(read, `SELECT fetched_at AS at ${HELD_LIST}`, [c, s]))?.at ?? null,
    page: (c, s, q) => viewerPage(read, c, s, q),
    window: (q) => viewerExportWindow(read, q),
    viewer: (c, s, viewerId) => viewerDetail(read, c, s, viewerId),
    breakdown: (c, s, dimension) => breakdown(read, c, s, dimension),
    story: (c, s, options) => viewerStory(read, c, s, options),
    unitSample: () =>
      all<ViewerSample>(
        read,
        `SELECT viewing_time AS viewing, ended_at - started_at AS "spanMs", COALESCE(cdn_traffic, 0) + COALESCE(ecdn_traffic, 0) AS traffic
         FROM viewers
         WHERE viewing_time > 0 AND started_at IS NOT NULL AND ended_at > started_at
         LIMIT ${UNIT_SAMPLE}`
      )
  }
}
