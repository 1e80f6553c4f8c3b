// Traffic rate from a session's snapshots: the API reports cumulative CDN/ECDN totals, so the rate
// between two points is the difference over the time between them. A total that goes down (the
// service reset its counters) or two points at the same instant give no rate (a gap), never a
// negative or infinite one.

export interface TrafficPoint {
  /** ms since epoch. */
  takenAt: number
  cdnTraffic: number
  ecdnTraffic: number
}

export interface TrafficRates {
  cdn: (number | null)[]
  ecdn: (number | null)[]
}

function rate(before: number, after: number, seconds: number): number | null {
  if (!(seconds > 0) || !Number.isFinite(before) || !Number.isFinite(after) || after < before) return null
  return (after - before) / seconds
}

/**
 * Per point, the rate since the point before it, in the points' unit per second (the first
 * point has none). `toBytes` converts a total in the unit in use to bytes.
 */
export function trafficRates(points: readonly TrafficPoint[], toBytes: (value: number) => number = (v) => v): TrafficRates {
  const cdn: (number | null)[] = []
  const ecdn: (number | null)[] = []
  points.forEach((point, i) => {
    const previous = points[i - 1]
    if (!previous) {
      cdn.push(null)
      ecdn.push(null)
      return
    }
    const seconds = (point.takenAt - previous.takenAt) / 1000
    const c = rate(previous.cdnTraffic, point.cdnTraffic, seconds)
    const e = rate(previous.ecdnTraffic, point.ecdnTraffic, seconds)
    cdn.push(c === null ? null : toBytes(c))
    ecdn.push(e === null ? null : toBytes(e))
  })
  return { cdn, ecdn }
}
