// A session's story told by its cached viewer list (issue 14): how many watched at each moment,
// the peak and when, who joined and left, and how the audience's quality went, over time. It
// needs no snapshot, so a past session Eventwatch never watched live has one too.
//
// Each viewer watched from startedAt to endedAt; one still watching when the list was fetched
// (no endedAt) counts until then, and has not left. One sweep over the joins and leaves in time order (a leave
// before a join at the same instant: the two never watched together) gives the exact peak and,
// per time bucket, the audience. The rows stream from SQLite: memory holds the buckets, not the
// list. Quality per bucket is over everyone who watched at some moment in it, with the
// breakdowns' math (breakdown.ts):
//   reliability      = mean reliabilityScore (the service's scale; the app layer puts it on 0–100)
//   rebufferingRatio = Σ rebufferingTime / Σ (rebufferingTime + viewingTime)
//   cdnErrorRate     = Σ cdnErrors / Σ cdnResponses
import type { Db } from '../db'
import { statement } from '../statements'

export interface StoryPoint {
  /** The bucket's end (ms since epoch). */
  at: number
  /** Watching at the bucket's end. */
  watching: number
  /** The most watching at once within the bucket. */
  peak: number
  joins: number
  leaves: number
  /** Over everyone who watched within the bucket; null when none said. */
  reliabilityScore: number | null
  rebufferingRatio: number | null
  cdnErrorRate: number | null
}

export interface ViewerStory {
  /** When the list was fetched (ms since epoch): viewers without an end were watching then. */
  fetchedAt: number
  /** Viewers in the list, and those of them with a start time (the ones the story counts). */
  viewers: number
  timedViewers: number
  /** No endedAt: still watching when the list was fetched. */
  stillWatching: number
  /** The most watching at once, and the first moment it was reached; null without a timed viewer. */
  peak: { viewers: number; at: number } | null
  /** The first start and the last end (or the fetch, for those still watching). */
  from: number | null
  to: number | null
  /** The latest endedAt the service gave; null when none. */
  lastEndedAt: number | null
  /** Σ viewingTime as the service gave it (its unit), null when none did. */
  viewingTime: number | null
  points: StoryPoint[]
}

export interface StoryOptions {
  /** Buckets over from..to (default 200). */
  maxPoints?: number
}

const DEFAULT_POINTS = 200

interface Event {
  t: number
  /** +1 a join, -1 a leave. */
  d: number
  r: number | null
  rb: number | null
  vt: number | null
  e: number | null
  n: number | null
}

/** Running sums over a set of viewers, with the breakdowns' math. */
class QualitySums {
  reliability = 0
  rated = 0
  rebuffering = 0
  watched = 0
  errors = 0
  responses = 0

  add(v: Event, sign: number): void {
    if (v.r !== null) {
      this.reliability += sign * v.r
      this.rated += sign
    }
    if (v.rb !== null && v.vt !== null) {
      this.rebuffering += sign * v.rb
      this.watched += sign * (v.rb + v.vt)
    }
    if (v.e !== null && v.n !== null) {
      this.errors += sign * v.e
      this.responses += sign * v.n
    }
  }

  copy(): QualitySums {
    return Object.assign(new QualitySums(), this)
  }

  /** Subtraction leaves float dust once a set empties: start it clean. */
  settle(): void {
    if (this.rated <= 0) this.reliability = this.rated = 0
    if (this.watched <= 1e-9) this.rebuffering = this.watched = 0
    if (this.responses <= 1e-9) this.errors = this.responses = 0
  }

  means(): Pick<StoryPoint, 'reliabilityScore' | 'rebufferingRatio' | 'cdnErrorRate'> {
    return {
      reliabilityScore: this.rated > 0 ? this.reliability / this.rated : null,
      rebufferingRatio: this.watched > 0 ? Math.max(0, this.rebuffering) / this.watched : null,
      cdnErrorRate: this.responses > 0 ? Math.max(0, this.errors) / this.responses : null
    }
  }
}

/** The story of the session's held viewer list; null when the cache holds none. */
export function viewerStory(db: Db, connectionId: string, eventSessionId: string, options: StoryOptions = {}): ViewerStory | null {
  const list = statement(
    db,
    `SELECT id, fetched_at AS fetchedAt FROM viewer_lists
     WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL`
  ).get(connectionId, eventSessionId) as { id: number; fetchedAt: number } | undefined
  if (!list) return null
  const params = { list: list.id, fetchedAt: list.fetchedAt }
  const totals = statement(
    db,
    `SELECT COUNT(*) AS viewers, COUNT(started_at) AS timedViewers,
       SUM(started_at IS NOT NULL AND ended_at IS NULL) AS stillWatching,
       MIN(started_at) AS "from", MAX(MAX(COALESCE(ended_at, @fetchedAt), started_at)) AS "to",
       MAX(ended_at) AS lastEndedAt, SUM(viewing_time) AS viewingTime
     FROM viewers WHERE list_id = @list`
  ).get(params) as Omit<ViewerStory, 'fetchedAt' | 'peak' | 'points'>
  const story: ViewerStory = { fetchedAt: list.fetchedAt, ...totals, stillWatching: totals.stillWatching ?? 0, peak: null, points: [] }
  if (story.timedViewers === 0 || story.from === null || story.to === null) return story

  const buckets = Math.max(1, Math.trunc(options.maxPoints ?? DEFAULT_POINTS))
  const from = story.from
  const width = Math.max(1, story.to - from) / buckets
  const bucketOf = (t: number): number => Math.min(buckets - 1, Math.floor((t - from) / width))

  const events = statement(
    db,
    `SELECT started_at AS t, 1 AS d, reliability_score AS r, rebuffering_time AS rb, viewing_time AS vt,
       cdn_errors AS e, cdn_responses AS n
     FROM viewers WHERE list_id = @list AND started_at IS NOT NULL
     UNION ALL
     SELECT MAX(ended_at, started_at), -1, reliability_score, rebuffering_time, viewing_time, cdn_errors, cdn_responses
     FROM viewers WHERE list_id = @list AND started_at IS NOT NULL AND ended_at IS NOT NULL
     ORDER BY t, d`
  )
  let watching = 0
  const running = new QualitySums()
  let bucket = 0
  // `carried`: watching as the bucket opened; it counts towards the bucket's peak unless the
  // first event falls on the opening instant itself (a leave there means they were not).
  let inBucket = { sums: running.copy(), carried: 0 as number | null, peak: 0, joins: 0, leaves: 0 }
  const close = (): void => {
    const peak = Math.max(inBucket.peak, inBucket.carried ?? 0)
    story.points.push({ at: Math.round(from + (bucket + 1) * width), watching, peak, joins: inBucket.joins, leaves: inBucket.leaves, ...inBucket.sums.means() })
    bucket++
    running.settle()
    inBucket = { sums: running.copy(), carried: watching, peak: 0, joins: 0, leaves: 0 }
  }
  for (const event of events.iterate(params) as IterableIterator<Event>) {
    const at = bucketOf(event.t)
    while (bucket < at) close()
    if (inBucket.carried !== null && event.t <= from + bucket * width) inBucket.carried = null
    watching += event.d
    running.add(event, event.d)
    if (watching > inBucket.peak) inBucket.peak = watching
    if (event.d > 0) {
      inBucket.joins++
      inBucket.sums.add(event, 1)
      if (story.peak === null || watching > story.peak.viewers) story.peak = { viewers: watching, at: event.t }
    } else inBucket.leaves++
  }
  while (bucket < buckets) close()
  return story
}
