// A small line chart as inline SVG, for the printable report: no script, no external reference,
// sharp at any zoom and on paper. Values are drawn as given; a null is a gap in the line.
import { escapeHtml } from './escape-html'

export interface SvgSeries {
  values: (number | null)[]
  colour: string
  dashed?: boolean
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
  const range = spec.yMax - spec.yMin || 1
  const plotW = WIDTH - PAD.left - PAD.right
  const plotH = HEIGHT - PAD.top - PAD.bottom
  const x = (t: number): number => PAD.left + ((t - first) / span) * plotW
  const y = (v: number): number => PAD.top + (1 - (Math.min(spec.yMax, Math.max(spec.yMin, v)) - spec.yMin) / range) * plotH
  const r = (n: number): string => n.toFixed(1)

  const parts: string[] = []
  for (let i = 0; i <= 4; i++) {
    const v = spec.yMin + (range * i) / 4
    parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(v))}" y2="${r(y(v))}" stroke="#d0d4dc" stroke-width="0.5"/>`)
    parts.push(`<text x="${PAD.left - 6}" y="${r(y(v) + 3)}" text-anchor="end">${escapeHtml(spec.formatY(v))}</text>`)
  }
  // Four time labels, far enough apart never to overlap.
  for (let i = 0; i <= 3; i++) {
    const t = first + (span * i) / 3
    const anchor = i === 0 ? 'start' : i === 3 ? 'end' : 'middle'
    parts.push(`<text x="${r(x(t))}" y="${HEIGHT - 8}" text-anchor="${anchor}">${escapeHtml(spec.formatTime(t))}</text>`)
  }
  for (const line of spec.lines ?? []) {
    if (line.value < spec.yMin || line.value > spec.yMax) continue
    parts.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${r(y(line.value))}" y2="${r(y(line.value))}" stroke="${line.colour}" stroke-dasharray="4 3"/>`,
      `<text x="${WIDTH - PAD.right - 2}" y="${r(y(line.value) - 3)}" text-anchor="end" fill="${line.colour}">${escapeHtml(line.label)}</text>`
    )
  }
  for (const series of spec.series) {
    // One polyline per run of values, so a null leaves a gap.
    let run: string[] = []
    const flush = (): void => {
      if (run.length > 0) {
        parts.push(
          `<polyline fill="none" stroke="${series.colour}" stroke-width="1.5"${series.dashed ? ' stroke-dasharray="4 3"' : ''} points="${run.join(' ')}"/>`
        )
      }
      run = []
    }
    series.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) flush()
      else run.push(`${r(x(times[i]!))},${r(y(v))}`)
    })
    flush()
  }
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(spec.title)}" font-size="10" font-family="sans-serif" fill="#555">${parts.join('')}</svg>`
}
