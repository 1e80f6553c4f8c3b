// Round axis ticks for the report's charts (issue 24: ticks on 0/32/63/95/127 and 36/52/68/84/100
// read as noise to a manager). Values step by 1, 2 or 5 × 10^n and the axis runs from one tick to
// another; times step by whole clock units (5, 10, 15, 30 seconds, 1, 2, 5, 10, 15, 30 minutes,
// 1, 2, 3, 6, 12 hours, days)
// on the UTC clock, so labels read 10:00, 10:15, 10:30. Pure, so the choice is unit-tested.

export interface ValueAxis {
  /** The axis' ends: the first tick at or below the data, the last at or above it. */
  min: number
  max: number
  step: number
  ticks: number[]
}

/** A round step about `span / intervals`: 1, 2 or 5 × 10^n, the smallest of those at or above it. */
export function roundStep(span: number, intervals: number): number {
  const raw = span > 0 && Number.isFinite(span) ? span / Math.max(1, intervals) : 1
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw * (1 - 1e-9))!
  return step
}

/** Ticks over [lo, hi] on round steps, about `intervals` of them (never more than twice that). */
export function valueAxis(lo: number, hi: number, intervals = 4): ValueAxis {
  const top = hi > lo ? hi : lo + 1
  const step = roundStep(top - lo, intervals)
  // Rounding kills float dust (0.30000000000000004) so a tick reads as it was meant.
  const clean = (n: number): number => Number(n.toPrecision(12))
  const min = clean(Math.floor(lo / step + 1e-9) * step)
  const max = clean(Math.ceil(top / step - 1e-9) * step)
  const ticks: number[] = []
  for (let v = min; v <= max + step / 2; v += step) ticks.push(clean(v))
  return { min, max, step, ticks }
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const TIME_STEPS = [5, 10, 15, 30].map((s) => s * 1000).concat([1, 2, 5, 10, 15, 30].map((m) => m * MINUTE), [1, 2, 3, 6, 12, 24].map((h) => h * HOUR))

/**
 * Instants (ms) within [first, last] on a whole clock step, at most `intervals` steps apart. A span
 * too short for two of them (a report made in a session's first minute) is labelled at its ends.
 */
export function timeTicks(first: number, last: number, intervals = 6): { step: number; ticks: number[] } {
  const span = Math.max(1, last - first)
  const step = TIME_STEPS.find((s) => span / s <= intervals) ?? Math.ceil(span / intervals / (24 * HOUR)) * 24 * HOUR
  const ticks: number[] = []
  for (let t = Math.ceil(first / step) * step; t <= last; t += step) ticks.push(t)
  return ticks.length >= 2 ? { step, ticks } : { step: span, ticks: [first, last] }
}
