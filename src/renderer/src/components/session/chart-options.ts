// uPlot options for the session charts: theme colours from the CSS variables, times formatted by
// the display store (so the UTC/local choice holds), threshold lines, and the `marks` hook where
// alerts will be drawn once they exist.
import type uPlot from 'uplot'

export interface ChartColours {
  text: string
  muted: string
  line: string
  panel: string
  accent: string
  good: string
  warning: string
  critical: string
  demo: string
}

/** The theme's colours as they are now (they change with Settings → Display → theme). */
export function readColours(root: Element = document.documentElement): ChartColours {
  const css = getComputedStyle(root)
  const get = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback
  return {
    text: get('--text', '#e6e9ef'),
    muted: get('--muted', '#9aa3b2'),
    line: get('--line', '#2a2f3a'),
    panel: get('--panel', '#171a21'),
    accent: get('--accent', '#6ea8ff'),
    good: get('--good', '#3ecf8e'),
    warning: get('--warning', '#f5b942'),
    critical: get('--critical', '#ff5c5c'),
    demo: get('--demo', '#b48cff')
  }
}

/** Something that happened at an instant (an alert, later), drawn as a vertical line. */
export interface ChartMark {
  /** ms since epoch. */
  at: number
  label: string
  severity: 'warning' | 'critical' | 'info'
}

export interface ThresholdLine {
  value: number
  label: string
  colour: string
}

export interface SeriesSpec {
  label: string
  colour: string
  dash?: number[]
  fill?: boolean
}

export interface ChartSpec {
  series: SeriesSpec[]
  /** A value as the legend and the axis show it. */
  format: (value: number) => string
  /** ms since epoch → "14:05:09", in the chosen time zone. */
  formatTime: (ms: number) => string
  range?: (min: number, max: number) => [number, number]
  thresholds?: ThresholdLine[]
  marks?: ChartMark[]
}

const withAlpha = (colour: string, alpha: number): string =>
  /^#[0-9a-f]{6}$/i.test(colour) ? `${colour}${Math.round(alpha * 255).toString(16).padStart(2, '0')}` : colour

/** Draws the threshold lines (horizontal, labelled) and the marks (vertical) over the plot. */
function overlays(spec: ChartSpec, colours: ChartColours): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const { ctx, bbox } = u
          const ratio = devicePixelRatio || 1
          ctx.save()
          ctx.font = `${11 * ratio}px system-ui, sans-serif`
          ctx.lineWidth = ratio
          for (const line of spec.thresholds ?? []) {
            const y = Math.round(u.valToPos(line.value, 'y', true))
            if (y < bbox.top || y > bbox.top + bbox.height) continue
            ctx.strokeStyle = line.colour
            ctx.setLineDash([6 * ratio, 4 * ratio])
            ctx.beginPath()
            ctx.moveTo(bbox.left, y)
            ctx.lineTo(bbox.left + bbox.width, y)
            ctx.stroke()
            // On a panel-coloured box, so a data line passing behind does not garble it.
            ctx.textAlign = 'right'
            const right = bbox.left + bbox.width - 4 * ratio
            const width = ctx.measureText(line.label).width
            ctx.fillStyle = colours.panel
            ctx.fillRect(right - width - 3 * ratio, y - 15 * ratio, width + 6 * ratio, 13 * ratio)
            ctx.fillStyle = line.colour
            ctx.fillText(line.label, right, y - 4 * ratio)
          }
          const severityColour = { warning: colours.warning, critical: colours.critical, info: colours.accent }
          for (const mark of spec.marks ?? []) {
            const x = Math.round(u.valToPos(mark.at / 1000, 'x', true))
            if (x < bbox.left || x > bbox.left + bbox.width) continue
            ctx.strokeStyle = severityColour[mark.severity]
            ctx.setLineDash([])
            ctx.beginPath()
            ctx.moveTo(x, bbox.top)
            ctx.lineTo(x, bbox.top + bbox.height)
            ctx.stroke()
          }
          ctx.restore()
        }
      ]
    }
  }
}

/** With the pointer off the chart, the legend shows the latest values rather than dashes. */
function latestInLegend(): uPlot.Plugin {
  const showLatest = (u: uPlot): void => {
    const last = u.data[0].length - 1
    if (u.cursor.idx == null && last >= 0) u.setLegend({ idx: last })
  }
  return { hooks: { ready: [showLatest], setData: [showLatest], setCursor: [showLatest] } }
}

/** The uPlot options of one chart, at a size. Data is [seconds[], ...series[]]. */
export function chartOptions(spec: ChartSpec, colours: ChartColours, width: number, height: number): uPlot.Options {
  const axis = (values: uPlot.Axis['values']): uPlot.Axis => ({
    stroke: colours.muted,
    grid: { stroke: colours.line, width: 1 },
    ticks: { stroke: colours.line, width: 1 },
    values
  })
  return {
    width,
    height,
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    legend: { live: true },
    scales: { x: { time: true }, y: spec.range ? { range: (_u, min, max) => spec.range!(min, max) } : {} },
    series: [
      { label: 'Time', value: (_u, seconds) => (seconds == null ? '—' : spec.formatTime(seconds * 1000)) },
      ...spec.series.map<uPlot.Series>((s) => ({
        label: s.label,
        stroke: s.colour,
        width: 2,
        dash: s.dash,
        fill: s.fill ? withAlpha(s.colour, 0.12) : undefined,
        spanGaps: false,
        value: (_u, v) => (v == null ? '—' : spec.format(v))
      }))
    ],
    axes: [
      axis((_u, splits) => splits.map((s) => spec.formatTime(s * 1000))),
      { ...axis((_u, splits) => splits.map((v) => spec.format(v))), size: 70 }
    ],
    plugins: [overlays(spec, colours), latestInLegend()]
  }
}
