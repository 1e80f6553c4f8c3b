// The report's charts (issue 24, item 8): round ticks on both axes (not 0/32/63/95/127 nor
// 36/52/68/84/100), whole clock steps on the time axis, and a reliability line coloured by level
// piece by piece — never green under the red critical line.
import { describe, expect, it } from 'vitest'
import { roundStep, timeTicks, valueAxis } from '../../src/main/core/report/axis-ticks'
import { levelRuns } from '../../src/main/core/report/level-runs'
import { svgLineChart } from '../../src/main/core/report/svg-chart'

const levels = { warning: 95, critical: 90 }
const COLOURS = { good: '#1a7f4b', warning: '#a86400', critical: '#c0262d', unknown: '#666' }
const T0 = Date.parse('2026-11-20T10:03:17Z')
const MIN = 60_000

/** Every tick is a whole multiple of a step of 1, 2 or 5 × 10^n. */
function isRound(ticks: number[]): boolean {
  const step = ticks[1]! - ticks[0]!
  const mantissa = step / 10 ** Math.floor(Math.log10(step))
  return [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9) && ticks.every((t) => Math.abs(t / step - Math.round(t / step)) < 1e-9)
}

describe('round value ticks', () => {
  it.each([
    [10, 4, 5],
    [127, 4, 50],
    [64, 4, 20],
    [0.9, 4, 0.5],
    [3_400_000, 4, 1_000_000],
    [7, 4, 2]
  ])('a span of %d in about %d steps steps by %d', (span, intervals, step) => {
    expect(roundStep(span, intervals)).toBe(step)
  })

  it.each([
    // The issue's axes: the viewers' 0–127 (as 0/32/63/95/127), the reliability's 36–100 (as 36/52/68/84/100).
    [0, 133.35, [0, 50, 100, 150]],
    [36, 100, [20, 40, 60, 80, 100]],
    [85, 100, [85, 90, 95, 100]],
    [0, 12, [0, 5, 10, 15]],
    [0, 1_234_567, [0, 500_000, 1_000_000, 1_500_000]]
  ])('from %d to %d: %j', (lo, hi, ticks) => {
    const axis = valueAxis(lo, hi)
    expect(axis.ticks).toEqual(ticks)
    expect([axis.min, axis.max]).toEqual([ticks[0], ticks.at(-1)])
    expect(isRound(axis.ticks)).toBe(true)
  })

  it('covers the data with at most twice the steps asked for, whatever the extent', () => {
    for (let hi = 1; hi < 5000; hi = Math.ceil(hi * 1.37)) {
      for (const lo of [0, hi / 3]) {
        const axis = valueAxis(lo, hi)
        expect(axis.min).toBeLessThanOrEqual(lo)
        expect(axis.max).toBeGreaterThanOrEqual(hi)
        expect(axis.ticks.length - 1).toBeLessThanOrEqual(8)
        expect(isRound(axis.ticks)).toBe(true)
      }
    }
  })
})

describe('time ticks', () => {
  const hhmm = (ticks: number[]) => ticks.map((t) => new Date(t).toISOString().slice(11, 16))
  it('land on whole clock steps: 15 minutes over 75, 1 hour over four hours', () => {
    expect(hhmm(timeTicks(T0, T0 + 75 * MIN).ticks)).toEqual(['10:15', '10:30', '10:45', '11:00', '11:15'])
    expect(hhmm(timeTicks(T0, T0 + 4 * 60 * MIN).ticks)).toEqual(['11:00', '12:00', '13:00', '14:00'])
    expect(hhmm(timeTicks(T0, T0 + 9 * MIN).ticks)).toEqual(['10:04', '10:06', '10:08', '10:10', '10:12'])
  })

  it("step by seconds over a minute, and label a span too short for two steps at its ends", () => {
    expect(timeTicks(T0, T0 + 40_000).ticks.map((t) => new Date(t).toISOString().slice(14, 19))).toEqual(['03:20', '03:30', '03:40', '03:50'])
    expect(timeTicks(T0, T0 + 3_000).ticks).toEqual([T0, T0 + 3_000])
  })
})

describe('the reliability line by level', () => {
  it('is red where it sits at 41, and cut exactly on each level it crosses', () => {
    const times = [0, 1, 2, 3].map((i) => T0 + i * MIN)
    const runs = levelRuns(times, [97, 97, 41, 41], levels)
    expect(runs.map((r) => r.health)).toEqual(['good', 'warning', 'critical'])
    // 97 → 41 crosses 95 and 90 between the second and third points.
    expect(runs[0]!.points.at(-1)![1]).toBe(95)
    expect(runs[1]!.points.map((p) => p[1])).toEqual([95, 90])
    expect(runs[2]!.points.map((p) => p[1])).toEqual([90, 41, 41])
    expect(runs[1]!.points[0]![0]).toBeCloseTo(T0 + MIN + MIN * (2 / 56))
  })

  it('keeps a gap, and colours a line between the levels amber', () => {
    const times = [0, 1, 2, 3, 4].map((i) => T0 + i * MIN)
    const runs = levelRuns(times, [93, 92, null, 92.5, 94], levels)
    expect(runs.map((r) => [r.health, r.points.length])).toEqual([
      ['warning', 2],
      ['warning', 2]
    ])
  })

  it('draws no green piece below the critical line in the chart', () => {
    const times = Array.from({ length: 30 }, (_, i) => T0 + i * MIN)
    const values = times.map((_, i) => (i < 10 ? 97 : 41 + (i % 3) * 0.2))
    const svg = svgLineChart({
      title: 'Reliability',
      times,
      series: [{ values, colour: COLOURS.good, byLevel: { ...levels, colours: COLOURS } }],
      yMin: 36,
      yMax: 100,
      formatY: (v) => v.toFixed(0),
      formatTime: (ms) => new Date(ms).toISOString().slice(11, 16),
      lines: [{ value: levels.critical, label: 'critical < 90', colour: COLOURS.critical }]
    })
    const criticalY = Number(/<line [^>]*y1="([\d.]+)"[^>]*stroke="#c0262d"/.exec(svg)![1])
    const pieces = [...svg.matchAll(/<polyline [^>]*stroke="([^"]+)"[^>]*points="([^"]+)"/g)].map((m) => ({
      colour: m[1],
      ys: m[2]!.split(' ').map((p) => Number(p.split(',')[1]))
    }))
    expect(pieces.map((p) => p.colour)).toEqual([COLOURS.good, COLOURS.warning, COLOURS.critical])
    // SVG y grows downwards: below the critical line is a larger y.
    for (const piece of pieces.filter((p) => p.colour === COLOURS.good)) for (const y of piece.ys) expect(y).toBeLessThanOrEqual(criticalY)
    expect(Math.min(...pieces.find((p) => p.colour === COLOURS.critical)!.ys)).toBeGreaterThanOrEqual(criticalY - 0.1)
    // Round ticks on the value axis: 20, 40, 60, 80, 100.
    expect([...svg.matchAll(/<text x="50" y="[\d.]+" text-anchor="end">(\d+)<\/text>/g)].map((m) => m[1])).toEqual(['20', '40', '60', '80', '100'])
  })
})
