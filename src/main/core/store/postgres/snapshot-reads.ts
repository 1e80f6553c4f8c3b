// A session's snapshots on PostgreSQL as the rules, the chart and the export read them:
// store/sessions.ts, queries/snapshots-chart.ts and the snapshot export windows in PostgreSQL's
// dialect. A chart of more snapshots than it may show is averaged into equal time buckets in SQL.
import type { ExportChunk } from '../../../../shared/screens'
import type { SnapshotReads, SnapshotRow } from '../interface/sessions'
import type { SnapshotPoint } from '../queries/snapshots-chart'
import { iso, pageBounds } from '../queries/sql'
import { all, one, type Sql } from './sql'

const OF_SESSION = 'connection_id = $1 AND event_session_id = $2'
const SELECT_SNAPSHOT = `SELECT taken_at AS "takenAt", viewers_count AS "viewersCount", reliability_score AS "reliabilityScore",
  cdn_traffic AS "cdnTraffic", ecdn_traffic AS "ecdnTraffic" FROM snapshots WHERE ${OF_SESSION}`
const IN_RANGE = `${OF_SESSION} AND taken_at >= $3 AND taken_at < $4`

export function snapshotReads(read: Sql): SnapshotReads {
  return {
    since: (c, s, since) => all<SnapshotRow>(read, `${SELECT_SNAPSHOT} AND taken_at >= $3 ORDER BY taken_at`, [c, s, since]),
    latest: (c, s) => one<SnapshotRow>(read, `${SELECT_SNAPSHOT} ORDER BY taken_at DESC LIMIT 1`, [c, s]),
    async chart(c, s, options = {}) {
      const range = [c, s, options.from ?? Number.MIN_SAFE_INTEGER, options.to ?? Number.MAX_SAFE_INTEGER]
      const span = (await one<{ total: number; first: number | null; last: number | null }>(
        read,
        `SELECT count(*) AS total, min(taken_at) AS first, max(taken_at) AS last FROM snapshots WHERE ${IN_RANGE}`,
        range
      ))!
      const maxPoints = options.maxPoints === undefined ? undefined : Math.max(1, Math.trunc(options.maxPoints))
      if (span.total === 0 || span.first === null || span.last === null) return { points: [], total: 0, bucketed: false }
      if (maxPoints === undefined || span.total <= maxPoints) {
        const points = await all<SnapshotPoint>(
          read,
          `SELECT taken_at AS "takenAt", viewers_count AS "viewersCount", reliability_score AS "reliabilityScore",
             cdn_traffic AS "cdnTraffic", ecdn_traffic AS "ecdnTraffic", reliability_score AS "minReliabilityScore",
             viewers_count AS "maxViewersCount", 1 AS samples
           FROM snapshots WHERE ${IN_RANGE} ORDER BY taken_at, id`,
          range
        )
        return { points, total: span.total, bucketed: false }
      }
      // Bucket b covers [first + b·width, first + (b+1)·width); width spans first..last inclusive.
      // floor(), not a cast: PostgreSQL's cast to an integer rounds, SQLite's truncates. Averages
      // of bigint are numeric (a string to pg): cast back to double.
      const width = (span.last - span.first + 1) / maxPoints
      const points = await all<SnapshotPoint>(
        read,
        `SELECT round(avg(taken_at))::bigint AS "takenAt", avg(viewers_count)::double precision AS "viewersCount",
           avg(reliability_score) AS "reliabilityScore", avg(cdn_traffic) AS "cdnTraffic", avg(ecdn_traffic) AS "ecdnTraffic",
           min(reliability_score) AS "minReliabilityScore", max(viewers_count) AS "maxViewersCount", count(*) AS samples
         FROM snapshots WHERE ${IN_RANGE}
         GROUP BY floor((taken_at - $5::bigint) / $6::double precision)
         ORDER BY 1`,
        [...range, span.first, width]
      )
      return { points, total: span.total, bucketed: true }
    },
    async exportWindow(q): Promise<ExportChunk> {
      const { limit, offset } = pageBounds(q.limit, q.offset)
      const total = (await one<{ total: number }>(read, `SELECT count(*) AS total FROM snapshots WHERE ${OF_SESSION}`, [q.connectionId, q.eventSessionId]))!.total
      const rows = await all<{ taken_at: number; viewers_count: number; reliability_score: number; cdn_traffic: number; ecdn_traffic: number }>(
        read,
        `SELECT taken_at, viewers_count, reliability_score, cdn_traffic, ecdn_traffic FROM snapshots WHERE ${OF_SESSION}
         ORDER BY taken_at, id LIMIT $3 OFFSET $4`,
        [q.connectionId, q.eventSessionId, limit, offset]
      )
      const records = rows.map((r) => ({
        time: iso(r.taken_at),
        viewersCount: r.viewers_count,
        reliabilityScore: r.reliability_score,
        cdnTraffic: r.cdn_traffic,
        ecdnTraffic: r.ecdn_traffic
      }))
      return { records, total }
    }
  }
}
