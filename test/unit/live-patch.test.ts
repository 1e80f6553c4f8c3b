// The live store's patching, pure: rows by key, rows that left, and trends grown by the newest
// snapshot a push carries (src/shared/live-board.ts, src/renderer/src/lib/live-patch.ts).
import { describe, expect, it } from 'vitest'
import type { ChartPoint } from '../../src/shared/chart-point'
import type { LiveSession } from '../../src/shared/domain'
import { appendPoint, keepTrends, mergeTrend, TrendQueue, withFetched } from '../../src/renderer/src/lib/live-patch'
import { patchSessions } from '../../src/shared/live-board'

const row = (id: string, viewersCount = 10) => ({ connectionId: 'c1', eventSessionId: id, viewersCount }) as LiveSession
const point = (takenAt: number, viewersCount = 1): ChartPoint => ({
  takenAt, viewersCount, reliability: 99, cdnTraffic: 0, ecdnTraffic: 0, minReliability: 99, maxViewersCount: viewersCount, samples: 1
})
const key = (id: string) => ({ connectionId: 'c1', eventSessionId: id })

describe('patchSessions', () => {
  it('replaces changed rows in place, adds new ones at the end, drops the ones that left', () => {
    const next = patchSessions([row('a'), row('b'), row('c')], { rows: [row('b', 99), row('d')], removed: [key('a')] })
    expect(next.map((s) => [s.eventSessionId, s.viewersCount])).toEqual([
      ['b', 99],
      ['c', 10],
      ['d', 10]
    ])
  })

  it('tells sessions of different connections apart', () => {
    const other = { ...row('a'), connectionId: 'c2' }
    expect(patchSessions([row('a'), other], { rows: [], removed: [key('a')] })).toEqual([other])
  })

  it('leaves its input alone', () => {
    const before = [row('a')]
    patchSessions(before, { rows: [row('a', 5)], removed: [] })
    expect(before[0]?.viewersCount).toBe(10)
  })
})

describe('trends', () => {
  it('appends a newer point and keeps only what is after `from`', () => {
    expect(appendPoint([point(1), point(2)], point(3), 0).map((p) => p.takenAt)).toEqual([1, 2, 3])
    expect(appendPoint([point(1), point(2)], point(3), 2).map((p) => p.takenAt)).toEqual([2, 3])
    expect(appendPoint([], point(5), 0).map((p) => p.takenAt)).toEqual([5])
  })

  it('skips a point no newer than the last (the same snapshot pushed again)', () => {
    const trend = [point(1), point(2)]
    expect(appendPoint(trend, point(2, 7), 0)).toEqual(trend)
    expect(appendPoint(trend, point(1), 0)).toEqual(trend)
  })

  it('merges a fetched trend with the points pushed while it was on its way', () => {
    expect(mergeTrend([point(1), point(2)], [point(2), point(3)]).map((p) => p.takenAt)).toEqual([1, 2, 3])
    expect(mergeTrend([point(1)], undefined).map((p) => p.takenAt)).toEqual([1])
    expect(mergeTrend([], [point(4)]).map((p) => p.takenAt)).toEqual([4])
  })

  it('keeps the trends of live sessions only, and merges fetched ones for sessions still live', () => {
    const trends = { 'c1/a': [point(1)], 'c1/b': [point(1)] }
    expect(Object.keys(keepTrends(trends, [key('b')]))).toEqual(['c1/b'])
    const merged = withFetched(trends, [{ ...key('a'), points: [point(0)] }, { ...key('z'), points: [point(0)] }], [key('a'), key('b')])
    expect(Object.keys(merged).sort()).toEqual(['c1/a', 'c1/b'])
    expect(merged['c1/a']?.map((p) => p.takenAt)).toEqual([0, 1])
  })
})

describe('TrendQueue', () => {
  it('asks for each session once, in batches, until a screen opens again', () => {
    const queue = new TrendQueue()
    expect(queue.want([key('a'), key('b'), key('c')])).toBe(true)
    expect(queue.take(2)).toEqual([key('a'), key('b')])
    expect(queue.take(2)).toEqual([key('c')])
    expect(queue.want([key('a'), key('b')])).toBe(false)
    queue.restart()
    expect(queue.want([key('a')])).toBe(true)
  })

  it('asks again for sessions whose fetch failed, forgets sessions that left, and drops what waits when no screen shows trends', () => {
    const queue = new TrendQueue()
    queue.want([key('a'), key('b')])
    const batch = queue.take(10)
    queue.failed([batch[0]!])
    expect(queue.want([key('a'), key('b')])).toBe(true)
    expect(queue.take(10)).toEqual([key('a')])
    queue.want([key('c')])
    queue.drop([key('c')])
    expect(queue.size).toBe(0)
    queue.want([key('d')])
    queue.clearWaiting()
    expect(queue.size).toBe(0)
  })
})
