// What the live screen computes from a session's recent snapshots: the traffic rate now, the
// ECDN offload share, the direction of a trend, and the shape of a sparkline. Pure: no DOM.

/** A snapshot as the live screen needs it (chart points and the live record both fit). */
export interface TrafficSample {
  /** ms since epoch */
  at: number
  cdnTraffic: number
  ecdnTraffic: number
}

export type TrafficRate =
  | { kind: 'rate'; cdnPerSecond: number; ecdnPerSecond: number; totalPerSecond: number }
  /** no-data: fewer than two snapshots, or no time between them; reset: a counter went down. */
  | { kind: 'none'; reason: 'no-data' | 'reset' }

/**
 * Traffic per second from the deltas between the last two snapshots. Traffic totals are
 * counters; when one goes down (the service restarted its count) there is no honest rate.
 */
export function trafficRate(samples: readonly TrafficSample[]): TrafficRate {
  const usable = samples.filter(
    (s) => Number.isFinite(s.at) && Number.isFinite(s.cdnTraffic) && Number.isFinite(s.ecdnTraffic)
  )
  const last = usable[usable.length - 1]
  const before = usable[usable.length - 2]
  if (!last || !before) return { kind: 'none', reason: 'no-data' }
  const seconds = (last.at - before.at) / 1000
  if (!(seconds > 0)) return { kind: 'none', reason: 'no-data' }
  const cdn = last.cdnTraffic - before.cdnTraffic
  const ecdn = last.ecdnTraffic - before.ecdnTraffic
  if (cdn < 0 || ecdn < 0) return { kind: 'none', reason: 'reset' }
  return { kind: 'rate', cdnPerSecond: cdn / seconds, ecdnPerSecond: ecdn / seconds, totalPerSecond: (cdn + ecdn) / seconds }
}

/**
 * The snapshots of a chart followed by the live record, when the record is newer than the
 * chart's last point: the rate then reflects the latest poll even before the chart refreshes.
 */
export function withLatest(samples: readonly TrafficSample[], latest: TrafficSample | null): TrafficSample[] {
  const last = samples[samples.length - 1]
  if (!latest || !Number.isFinite(latest.at) || (last && latest.at <= last.at)) return [...samples]
  return [...samples, latest]
}

/** Share of traffic served by the ECDN, 0–100; null when there was no traffic to share. */
export function offloadShare(cdn: number, ecdn: number): number | null {
  if (!Number.isFinite(cdn) || !Number.isFinite(ecdn) || cdn < 0 || ecdn < 0) return null
  const total = cdn + ecdn
  return total > 0 ? (ecdn / total) * 100 : null
}

export type TrendDirection = 'up' | 'down' | 'flat' | 'unknown'

export interface TrendTolerance {
  /** Changes no larger than this many units are flat (reliability: points on 0–100). */
  absolute?: number
  /** Changes no larger than this share of the earlier value are flat (viewers: 0.02 = 2 %). */
  relative?: number
}

/**
 * Where a series went over its window: its last value against its first. Small wobbles are
 * flat, so the arrow means something when it shows.
 */
export function trendDirection(values: readonly number[], tolerance: TrendTolerance = {}): TrendDirection {
  const finite = values.filter(Number.isFinite)
  const first = finite[0]
  const last = finite[finite.length - 1]
  if (finite.length < 2 || first === undefined || last === undefined) return 'unknown'
  const change = last - first
  const allowed = Math.max(tolerance.absolute ?? 0, (tolerance.relative ?? 0) * Math.abs(first))
  if (Math.abs(change) <= allowed) return 'flat'
  return change > 0 ? 'up' : 'down'
}

/**
 * The `points` attribute of an SVG polyline drawing `values` in a width × height box
 * (y grows downwards). A flat series is drawn across the middle; non-finite values are skipped;
 * the vertical scale spans at least `minSpan` units. With `times` (one per value, ms), each point
 * sits at its time, so a trend whose points are not evenly spaced (averaged minutes, then every
 * poll) is drawn true to the clock; without, the points are evenly spaced.
 */
export function sparklinePoints(
  values: readonly number[],
  width: number,
  height: number,
  pad = 1,
  minSpan = 0,
  times?: readonly number[]
): string {
  const kept = values
    .map((v, i) => ({ v, t: times ? (times[i] ?? Number.NaN) : i }))
    .filter((p) => Number.isFinite(p.v) && Number.isFinite(p.t))
  if (kept.length === 0) return ''
  const finite = kept.map((p) => p.v)
  let min = Math.min(...finite)
  let max = Math.max(...finite)
  // A wobble smaller than minSpan stays small instead of filling the box (and looking dramatic).
  if (max - min < minSpan && max > min) {
    const mid = (max + min) / 2
    min = mid - minSpan / 2
    max = mid + minSpan / 2
  }
  const inner = height - 2 * pad
  const y = (v: number): number => (max === min ? height / 2 : pad + inner - ((v - min) / (max - min)) * inner)
  const first = kept[0]!.t
  const span = kept[kept.length - 1]!.t - first
  const x = (t: number): number => (span > 0 ? ((t - first) / span) * width : 0)
  const coords = kept.map((p) => `${round(x(p.t))},${round(y(p.v))}`)
  // A single point (or points at one instant) still draws: a short flat line across the box.
  if (!(span > 0)) coords.splice(1, coords.length, `${round(width)},${round(y(kept[kept.length - 1]!.v))}`)
  return coords.join(' ')
}

const round = (n: number): number => Math.round(n * 10) / 10

/** The `from` of the live screen's trend requests: one hour before `now`. */
export function hourBefore(now: number): string {
  return new Date(now - 3_600_000).toISOString()
}

/** A session that has not been polled for several intervals (or ever) is stale. */
export function isPollStale(lastPolledAt: string | null, now: number, pollIntervalSeconds: number): boolean {
  if (lastPolledAt === null) return true
  const at = Date.parse(lastPolledAt)
  if (!Number.isFinite(at)) return true
  return now - at > Math.max(3 * pollIntervalSeconds, 30) * 1000
}
