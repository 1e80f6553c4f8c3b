// `--interval SECONDS` sets every poll cadence to that value for the run (tests, short
// incidents); without it the defaults hold.
import type { Cadences } from '../core/sync/poller'

export function cadencesFor(intervalSeconds: number | undefined): Partial<Cadences> {
  if (intervalSeconds === undefined) return {}
  const ms = intervalSeconds * 1000
  return { discoveryMs: ms, detailMs: ms, viewersMs: ms }
}
