// A session's snapshots for a chart: every one when they fit, else averaged into at most
// `maxPoints` equal time buckets (in SQL, so a long session's thousands of rows never cross into
// JS). Each bucket also keeps its lowest reliability and highest audience, so a dip or a spike
// shorter than a bucket still shows.
import type { Db } from '../db'
import { statement } from '../statements'

export interface ChartOptions {
  /** Snapshots taken at or after this instant (ms since epoch). */
  from?: number
  /** Snapshots taken before this instant (ms since epoch). */
  to?: number
  /** The most points to return; no limit when absent. */
  maxPoints?: number
}

/** A snapshot or bucket as stored, with the service's own reliabilityScore (the app layer puts
 *  it on 0–100 as a ChartPoint). Times are ms since epoch here: charts compute with them. */
export interface SnapshotPoint {
  /** The snapshot's time; for a bucket, the mean time of its snapshots. */
  takenAt: number
  viewersCount: number
  reliabilityScore: number
  cdnTraffic: number
  ecdnTraffic: number
  /** For a bucket: its extremes and how many snapshots it averages (1 when not bucketed). */
  minReliabilityScore: number
  maxViewersCount: number
  samples: number
}

export interface ChartSeries {
  points: SnapshotPoint[]
  /** Snapshots in the window before any bucketing. */
  total: number
  bucketed: boolean
}

const RANGE = `connection_id = @connectionId AND event_session_id = @sessionId
  AND taken_at >= @from AND taken_at < @to`

export function snapshotsForChart(db: Db, connectionId: string, sessionId: string, options: ChartOptions = {}): ChartSeries {
  const params = {
    connectionId,
    sessionId,
    from: options.from ?? Number.MIN_SAFE_INTEGER,
    to: options.to ?? Number.MAX_SAFE_INTEGER
  }
  // Read off the (connection_id, event_session_id, taken_at) index alone.
  const span = statement(db, `SELECT COUNT(*) AS total, MIN(taken_at) AS first, MAX(taken_at) AS last FROM snapshots WHERE ${RANGE}`).get(
    params
  ) as { total: number; first: number | null; last: number | null }
  const maxPoints = options.maxPoints === undefined ? undefined : Math.max(1, Math.trunc(options.maxPoints))
  if (span.total === 0 || span.first === null || span.last === null) return { points: [], total: 0, bucketed: false }

  if (maxPoints === undefined || span.total <= maxPoints) {
    const points = statement(
      db,
      `SELECT taken_at AS takenAt, viewers_count AS viewersCount, reliability_score AS reliabilityScore,
         cdn_traffic AS cdnTraffic, ecdn_traffic AS ecdnTraffic, reliability_score AS minReliabilityScore,
         viewers_count AS maxViewersCount, 1 AS samples
       FROM snapshots WHERE ${RANGE} ORDER BY taken_at, id`
    ).all(params) as SnapshotPoint[]
    return { points, total: span.total, bucketed: false }
  }

  // Bucket b covers [first + b·width, first + (b+1)·width); width spans first..last inclusive.
  const width = (span.last - span.first + 1) / maxPoints
  const points = statement(
    db,
    `SELECT CAST(ROUND(AVG(taken_at)) AS INTEGER) AS takenAt, AVG(viewers_count) AS viewersCount,
       AVG(reliability_score) AS reliabilityScore, AVG(cdn_traffic) AS cdnTraffic, AVG(ecdn_traffic) AS ecdnTraffic,
       MIN(reliability_score) AS minReliabilityScore, MAX(viewers_count) AS maxViewersCount, COUNT(*) AS samples
     FROM snapshots WHERE ${RANGE}
     GROUP BY CAST((taken_at - @first) / @width AS INTEGER)
     ORDER BY 1`
  ).all({ ...params, first: span.first, width }) as SnapshotPoint[]
  return { points, total: span.total, bucketed: true }
}
