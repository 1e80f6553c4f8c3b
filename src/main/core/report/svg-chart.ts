// A small line chart as inline SVG, for the printable report: no script, no external reference,
// sharp at any zoom and on paper. Axes tick on round values and whole clock steps
// (axis-ticks.ts); a series may be coloured by reliability level, piece by piece (level-runs.ts).
// A null is a gap in the line.
import type { Health } from '../../../shared/reliability'
import { timeTicks, valueAxis } from './axis-ticks'
import { escapeHtml } from './escape-html'
import { levelRuns } from './level-runs'

export interface SvgSeries {
  values: (number | null)[]
  colour: string
  dashed?: boolean
  /** Colour the line by these levels instead: each piece in its health's colour. */
  byLevel?: { warning: number; critical: number; colours: Record<Health, string> }
}

export interface SvgLine {
  value: number
  label: string
  colour: string
}

export interface SvgChartSpec {
  /** ms since epoch, one per value. */
  times: number[]
  series: SvgSeries[]
  /** The data's extent to cover; the axis widens it to round ticks. */
  yMin: number
  yMax: number
  formatY: (v: number) => string
  formatTime: (ms: number) => string
  /** Horizontal reference lines (the reliability levels). */
  lines?: SvgLine[]
  title: string
}

const WIDTH = 720
const HEIGHT = 200
const PAD = { left: 56, right: 12, top: 12, bottom: 28 }

export function svgLineChart(spec: SvgChartSpec): string {
  const { times } = spec
  const first = times[0] ?? 0
  const last = times[times.length - 1] ?? first + 1
  const span = Math.max(1, last - first)
  const axis = valueAxis(spec.yMin, spec.yMax)
  const range = axis.max - axis.min || 1
  const plotW = WIDTH - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const x = (t: number): number => PAD.left + ((t - first) / span) * plotW
  const y = (v: number): number => PAD.top + (1 - (Math.min(axis.max, Math.max(axis.min, v)) - axis.min) / range) * plotH
  const r = (n: number): string => n.toFixed(1)

  const parts: string[] = []
  for (const v of axis.ticks) {
    parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(v))}" y2="${r(y(v))}" stroke="#d0d4dc" stroke-width="0.5"/>`)
    parts.push(`<text x="${PAD.left - 6}" y="${r(y(v) + 3)}" text-anchor="end">${escapeHtml(spec.formatY(v))}</text>`)
  }
  // Time labels on whole clock steps; one too near the plot's edge would be cut, so it anchors inwards.
  for (const t of timeTicks(first, last).ticks) {
    const at = x(t)
    const anchor = at - PAD.left < 16 ? 'start' : WIDTH - PAD.right - at < 16 ? 'end' : 'middle'
    parts.push(`<line x1="${r(at)}" x2="${r(at)}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH + 4}" stroke="#9aa1ad" stroke-width="0.5"/>`)
    parts.push(`<text x="${r(at)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${escapeHtml(spec.formatTime(t))}</text>`)
  }
  // Each level's label above its line, the lowest's below it: two close levels never overprint.
  const lowest = Math.min(...(spec.lines ?? []).map((l) => l.value))
  for (const line of spec.lines ?? []) {
    if (line.value < axis.min || line.value > axis.max) continue
    const labelY = line.value === lowest && (spec.lines?.length ?? 0) > 1 ? y(line.value) + 11 : y(line.value) - 3
    parts.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(line.value))}" y2="${r(y(line.value))}" stroke="${line.colour}" stroke-dasharray="4 3"/>`,
      `<text x="${WIDTH - PAD.right - 2}" y="${r(labelY)}" text-anchor="end" fill="${line.colour}">${escapeHtml(line.label)}</text>`
    )
  }
  const polyline = (colour: string, points: [number, number][], dashed = false, health?: Health): string =>
    `<polyline fill="none" stroke="${colour}" stroke-width="${health ? 2 : 1.5}"${dashed ? ' stroke-dasharray="4 3"' : ''}${health ? ` data-health="${health}"` : ''} points="${points
      .map(([t, v]) => `${r(x(t))},${r(y(v))}`)
      .join(' ')}"/>`
  for (const series of spec.series) {
    const { byLevel } = series
    if (byLevel) {
      for (const run of levelRuns(times, series.values, byLevel)) parts.push(polyline(byLevel.colours[run.health], run.points, series.dashed, run.health))
      continue
    }
    // One polyline per run of values, so a null leaves a gap.
    let run: [number, number][] = []
    const flush = (): void => {
      if (run.length > 0) parts.push(polyline(series.colour, run, series.dashed))
      run = []
    }
    series.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) flush()
      else run.push([times[i]!, v])
    })
    flush()
  }
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(spec.title)}" font-size="10" font-family="sans-serif" fill="#555">${parts.join('')}</svg>`
}
