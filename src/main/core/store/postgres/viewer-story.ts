// A session's story told by its held viewer list, on PostgreSQL (queries/viewer-story.ts says what
// it is and how it counts). SQLite reads every viewer's start and end into this process and sweeps
// them; here PostgreSQL sweeps them itself, in SQL, and hands over one row per bucket (at most
// `maxPoints`): the process holds no more of a list of a million than of a list of ten.
//
// The sweep: every start (+1) and every end (−1, never before its start) in time order, a leave
// before a join at the same instant; the running sum is the audience after each event. Per bucket:
// joins, leaves, the most watching after any of its events, whether one fell on its opening
// instant; overall: the most watching after a join, and the first event that reached it.
import { bucketQualities, DEFAULT_POINTS, sumsByBucket, type QualityFigures, type StoryOptions, type ViewerStory } from '../queries/viewer-story'
import { all, one, type Sql } from './sql'
import { HELD_LIST } from './viewer-sql'

/** A timed viewer's leaving instant: its end, never before its start; none without an end
 *  (SQLite's scalar MAX is NULL when either is, where GREATEST ignores a NULL). */
const LEFT_AT = 'CASE WHEN ended_at IS NOT NULL THEN GREATEST(ended_at, started_at) END'

/** Every start and end of list $1, each with the bucket it falls in ($2 from, $3 width, $4 last bucket). */
const RUNNING = `
  events AS (
    SELECT started_at AS t, 1 AS step FROM viewers WHERE list_id = $1 AND started_at IS NOT NULL
    UNION ALL
    SELECT ${LEFT_AT}, -1 FROM viewers WHERE list_id = $1 AND started_at IS NOT NULL AND ended_at IS NOT NULL
  ),
  running AS (
    SELECT t, step, sum(step) OVER w AS watching, row_number() OVER w AS n,
      LEAST($4::integer, floor((t - $2::bigint) / $3::float8)::integer) AS bucket
    FROM events
    WINDOW w AS (ORDER BY t, step ROWS UNBOUNDED PRECEDING)
  )`

interface BucketRow {
  bucket: number
  joins: number
  leaves: number
  /** The most watching after any event of the bucket. */
  peak: number
  /** An event fell on the bucket's opening instant: those watching as it opened may not count. */
  atOpening: boolean
  peakViewers: number | null
  peakAt: number | null
}

/** Each bucket's quality sums of the viewers whose `at` (their start, or their leaving) falls in it. */
function qualityByBucket(read: Sql, listId: number, at: string, from: number, width: number, buckets: number) {
  return all<QualityFigures & { bucket: number }>(
    read,
    `SELECT LEAST($4::integer, floor((${at} - $2::bigint) / $3::float8)::integer) AS bucket,
       COALESCE(sum(reliability_score), 0) AS reliability, count(reliability_score) AS rated,
       COALESCE(sum(CASE WHEN viewing_time IS NOT NULL THEN rebuffering_time END), 0) AS rebuffering,
       COALESCE(sum(CASE WHEN viewing_time IS NOT NULL AND rebuffering_time IS NOT NULL THEN rebuffering_time + viewing_time END), 0) AS watched,
       COALESCE(sum(CASE WHEN cdn_responses IS NOT NULL THEN cdn_errors END), 0) AS errors,
       COALESCE(sum(CASE WHEN cdn_errors IS NOT NULL THEN cdn_responses END), 0) AS responses
     FROM viewers WHERE list_id = $1 AND started_at IS NOT NULL AND ${at} IS NOT NULL
     GROUP BY 1`,
    [listId, from, width, buckets - 1]
  ).then((rows) => sumsByBucket(rows, buckets))
}

/** The story of the session's held viewer list; null when none is held. */
export async function viewerStory(read: Sql, connectionId: string, eventSessionId: string, options: StoryOptions = {}): Promise<ViewerStory | null> {
  const list = await one<{ id: number; fetchedAt: number }>(read, `SELECT id, fetched_at AS "fetchedAt" ${HELD_LIST}`, [connectionId, eventSessionId])
  if (!list) return null
  // SQLite's scalar MAX(a, b) is NULL when either is: a viewer without a start has no "to".
  const totals = (await one<Omit<ViewerStory, 'fetchedAt' | 'peak' | 'points'>>(
    read,
    `SELECT count(*) AS viewers, count(started_at) AS "timedViewers",
       count(*) FILTER (WHERE started_at IS NOT NULL AND ended_at IS NULL) AS "stillWatching",
       min(started_at) AS "from", max(GREATEST(COALESCE(ended_at, $2), started_at)) FILTER (WHERE started_at IS NOT NULL) AS "to",
       max(ended_at) AS "lastEndedAt", sum(viewing_time) AS "viewingTime"
     FROM viewers WHERE list_id = $1`,
    [list.id, list.fetchedAt]
  ))!
  const story: ViewerStory = { fetchedAt: list.fetchedAt, ...totals, peak: null, points: [] }
  if (story.timedViewers === 0 || story.from === null || story.to === null) return story

  const buckets = Math.max(1, Math.trunc(options.maxPoints ?? DEFAULT_POINTS))
  const from = story.from
  const width = Math.max(1, story.to - from) / buckets
  const joined = await qualityByBucket(read, list.id, 'started_at', from, width, buckets)
  const left = await qualityByBucket(read, list.id, LEFT_AT, from, width, buckets)
  const qualityOf = bucketQualities(joined, left)

  // The opening instant as the sweep computes it (from + bucket · width, in float8 as in JS).
  const rows = await all<BucketRow>(
    read,
    `WITH ${RUNNING},
     record AS (SELECT watching, t FROM running WHERE step = 1 ORDER BY watching DESC, n LIMIT 1)
     SELECT b.*, record.watching AS "peakViewers", record.t AS "peakAt"
     FROM (
       SELECT bucket, count(*) FILTER (WHERE step = 1) AS joins, count(*) FILTER (WHERE step = -1) AS leaves,
         max(watching) AS peak, bool_or(t <= $2::float8 + bucket * $3::float8) AS "atOpening"
       FROM running GROUP BY bucket
     ) b LEFT JOIN record ON true
     ORDER BY b.bucket`,
    [list.id, from, width, buckets - 1]
  )
  const first = rows[0]
  if (first?.peakViewers != null && first.peakAt != null) story.peak = { viewers: first.peakViewers, at: first.peakAt }
  const byBucket = new Map(rows.map((row) => [row.bucket, row]))
  let watching = 0
  for (let bucket = 0; bucket < buckets; bucket++) {
    const row = byBucket.get(bucket)
    const carried = row?.atOpening ? 0 : watching
    if (row) watching += row.joins - row.leaves
    story.points.push({
      at: Math.round(from + (bucket + 1) * width),
      watching,
      peak: Math.max(0, row?.peak ?? 0, carried),
      joins: row?.joins ?? 0,
      leaves: row?.leaves ?? 0,
      ...qualityOf[bucket]!
    })
  }
  return story
}
