import { describe, expect, it } from 'vitest'
import {
  hourBefore,
  isPollStale,
  offloadShare,
  sparklinePoints,
  trafficRate,
  trendDirection,
  withLatest
} from '../../src/shared/live-metrics'

const sample = (at: number, cdnTraffic: number, ecdnTraffic: number) => ({ at, cdnTraffic, ecdnTraffic })

describe('traffic rate from the last two snapshots', () => {
  it('divides the deltas of the last two snapshots by the seconds between them', () => {
    const rate = trafficRate([sample(0, 0, 0), sample(10_000, 1_000, 500), sample(20_000, 3_000, 4_500)])
    expect(rate).toEqual({ kind: 'rate', cdnPerSecond: 200, ecdnPerSecond: 400, totalPerSecond: 600 })
  })

  it('has no rate with fewer than two snapshots or no time between them', () => {
    expect(trafficRate([])).toEqual({ kind: 'none', reason: 'no-data' })
    expect(trafficRate([sample(0, 5, 5)])).toEqual({ kind: 'none', reason: 'no-data' })
    expect(trafficRate([sample(1000, 5, 5), sample(1000, 50, 50)])).toEqual({ kind: 'none', reason: 'no-data' })
  })

  it('says "reset" when a counter went down instead of showing a negative rate', () => {
    expect(trafficRate([sample(0, 9_000, 100), sample(5_000, 200, 150)])).toEqual({ kind: 'none', reason: 'reset' })
    expect(trafficRate([sample(0, 100, 9_000), sample(5_000, 200, 150)])).toEqual({ kind: 'none', reason: 'reset' })
  })

  it('skips snapshots with non-numbers', () => {
    const rate = trafficRate([sample(0, 0, 0), sample(1_000, 100, 0), sample(NaN, 5, 5)])
    expect(rate).toEqual({ kind: 'rate', cdnPerSecond: 100, ecdnPerSecond: 0, totalPerSecond: 100 })
  })

  it('is zero, not missing, when traffic did not move', () => {
    expect(trafficRate([sample(0, 10, 10), sample(2_000, 10, 10)])).toMatchObject({ kind: 'rate', totalPerSecond: 0 })
  })
})

describe('withLatest', () => {
  const chart = [sample(1_000, 10, 0), sample(2_000, 20, 0)]
  it('appends the live record when it is newer than the chart', () => {
    expect(withLatest(chart, sample(3_000, 40, 0))).toHaveLength(3)
    expect(trafficRate(withLatest(chart, sample(3_000, 40, 0)))).toMatchObject({ totalPerSecond: 20 })
  })
  it('ignores a record the chart already holds, or one never polled', () => {
    expect(withLatest(chart, sample(2_000, 20, 0))).toEqual(chart)
    expect(withLatest(chart, sample(NaN, 20, 0))).toEqual(chart)
    expect(withLatest(chart, null)).toEqual(chart)
  })
})

describe('ECDN offload share', () => {
  it('is the ECDN share of all traffic, 0–100', () => {
    expect(offloadShare(250, 750)).toBe(75)
    expect(offloadShare(1000, 0)).toBe(0)
    expect(offloadShare(0, 10)).toBe(100)
  })
  it('is null without traffic or with nonsense', () => {
    expect(offloadShare(0, 0)).toBeNull()
    expect(offloadShare(-5, 10)).toBeNull()
    expect(offloadShare(NaN, 10)).toBeNull()
  })
})

describe('trend direction', () => {
  it('compares the last value with the first', () => {
    expect(trendDirection([100, 90, 130])).toBe('up')
    expect(trendDirection([100, 110, 70])).toBe('down')
    expect(trendDirection([100, 100])).toBe('flat')
  })
  it('treats changes within the tolerance as flat', () => {
    expect(trendDirection([98, 97.8], { absolute: 0.5 })).toBe('flat')
    expect(trendDirection([98, 97], { absolute: 0.5 })).toBe('down')
    expect(trendDirection([1000, 1015], { relative: 0.02 })).toBe('flat')
    expect(trendDirection([1000, 1030], { relative: 0.02 })).toBe('up')
  })
  it('is unknown with fewer than two numbers', () => {
    expect(trendDirection([])).toBe('unknown')
    expect(trendDirection([5])).toBe('unknown')
    expect(trendDirection([NaN, 5])).toBe('unknown')
  })
})

describe('sparkline points', () => {
  it('spans the box: lowest value at the bottom, highest at the top', () => {
    expect(sparklinePoints([0, 10, 5], 100, 20, 0)).toBe('0,20 50,0 100,10')
  })
  it('draws a flat or single-value series across the middle', () => {
    expect(sparklinePoints([3, 3], 100, 20)).toBe('0,10 100,10')
    expect(sparklinePoints([7], 100, 20)).toBe('0,10 100,10')
  })
  it('keeps a small wobble small when given a minimum span', () => {
    expect(sparklinePoints([99, 101], 100, 20, 0, 20)).toBe('0,11 100,9')
  })
  it('draws nothing without data', () => {
    expect(sparklinePoints([], 100, 20)).toBe('')
  })
  it('places each point at its time when given times: averaged minutes, then a point every poll', () => {
    // Two points a minute apart, then two polls 15 s apart: the gaps stay true to the clock.
    expect(sparklinePoints([0, 10, 10, 0], 90, 20, 0, 0, [0, 60_000, 75_000, 90_000])).toBe('0,20 60,0 75,0 90,20')
    // A value without a time (or a time without a value) is skipped, the pairs stay aligned.
    expect(sparklinePoints([0, Number.NaN, 10], 100, 20, 0, 0, [0, 50, 100])).toBe('0,20 100,0')
    expect(sparklinePoints([5], 100, 20, 0, 0, [1_000])).toBe('0,10 100,10')
  })
})

describe('staleness and the trend window', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  it('calls a session stale after three poll intervals (at least 30 s), or when never polled', () => {
    expect(isPollStale('2026-11-21T11:59:40Z', now, 10)).toBe(false)
    expect(isPollStale('2026-11-21T11:59:20Z', now, 10)).toBe(true)
    expect(isPollStale('2026-11-21T11:58:00Z', now, 60)).toBe(false)
    expect(isPollStale(null, now, 10)).toBe(true)
    expect(isPollStale('not a time', now, 10)).toBe(true)
  })
  it('asks for the last hour', () => {
    expect(hourBefore(now)).toBe('2026-11-21T11:00:00.000Z')
  })
})
