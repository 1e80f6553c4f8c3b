// A reliability line coloured by its level, piece by piece (issue 24: the line stayed green at 41,
// under the red critical line): green at or above the warning level, amber below it, red below the
// critical level, the health verdict's rule (core/health/health.ts). Where the line crosses a
// level between two points it is cut at the crossing, so the colour changes exactly on the level's
// line. A null value is a gap. Pure, so the cut is unit-tested.
import type { Health } from '../../../shared/reliability'
import { healthOf } from '../health/health'

export interface Run {
  health: Health
  /** [ms, value] pairs, at least two. */
  points: [number, number][]
}

export function levelRuns(times: readonly number[], values: readonly (number | null)[], levels: { warning: number; critical: number }): Run[] {
  const runs: Run[] = []
  let current: Run | null = null
  const add = (health: Health, from: [number, number], to: [number, number]): void => {
    if (current && current.health === health && current.points.at(-1) === from) current.points.push(to)
    else {
      current = { health, points: [from, to] }
      runs.push(current)
    }
  }
  let previous: [number, number] | null = null
  values.forEach((v, i) => {
    if (v === null || !Number.isFinite(v)) {
      previous = null
      current = null
      return
    }
    const point: [number, number] = [times[i]!, v]
    if (previous) {
      const [t0, v0] = previous
      // Cut where the line crosses a level strictly between the two points.
      const cuts = [levels.critical, levels.warning]
        .filter((level) => (v0 - level) * (v - level) < 0)
        .map((level): [number, number] => [t0 + ((level - v0) / (v - v0)) * (point[0] - t0), level])
        .sort((a, b) => (a[0] - b[0]))
      let from: [number, number] = previous
      for (const to of [...cuts, point]) {
        add(healthOf((from[1] + to[1]) / 2, levels), from, to)
        from = to
      }
    }
    previous = point
  })
  return runs
}
