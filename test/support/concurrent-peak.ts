// A simulated session's true concurrent peak, from the times the simulator holds (which a test
// trusts): viewers without a start or with an end before it left out, a leave before a join at
// the same instant. What a report and History must say of a session first seen after its end.
import type { SimViewer } from '../../src/main/core/simulator/viewers'

export function concurrentPeak(viewers: readonly SimViewer[]): number {
  const events = viewers
    .filter((v) => !v.startUnknown && (v.endedAt === null || v.endedAt >= v.startedAt))
    .flatMap((v) => [[v.startedAt, 1] as const, ...(v.endedAt === null ? [] : [[v.endedAt, -1] as const])])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let watching = 0
  let peak = 0
  for (const [, step] of events) peak = Math.max(peak, (watching += step))
  return peak
}
