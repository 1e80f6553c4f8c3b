// uPlot options for the session charts: theme colours from the CSS variables, times formatted by
// the display store (so the UTC/local choice holds), threshold lines, and alert marks (vertical
// lines where an alert fired or resolved).
import type uPlot from 'uplot'
import type { EffectiveLevels } from '../../../../shared/reliability'

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

/** The theme's colours as they are now (they change with Settings → Display → Theme, the system's
 *  preference and forced colours), each resolved to rgb(): a canvas knows no CSS variables nor
 *  system colours. Under forced colours (Windows High Contrast) the canvas is not recoloured by
 *  the system, so its text, grid and background take the system's colours here; the series keep
 *  the theme's (the theme in use is then the system's light or dark: theme.svelte.ts). */
export function readColours(root: Element = document.documentElement): ChartColours {
  const forced = typeof matchMedia === 'function' && matchMedia('(forced-colors: active)').matches
  const probe = document.createElement('span')
  // Its colour as given, not as forced colours would replace it.
  probe.style.cssText = 'display: none; forced-color-adjust: none'
  root.appendChild(probe)
  const get = (name: string, fallback: string, system?: string): string => {
    probe.style.color = fallback
    probe.style.color = forced && system ? system : `var(${name}, ${fallback})`
    return getComputedStyle(probe).color || fallback
  }
  try {
    return {
      text: get('--text', '#e6e9ef', 'CanvasText'),
      muted: get('--muted', '#9aa3b2', 'CanvasText'),
      line: get('--line', '#2a2f3a', 'GrayText'),
      panel: get('--panel', '#171a21', 'Canvas'),
      accent: get('--accent', '#6ea8ff', 'Highlight'),
      good: get('--good', '#3ecf8e'),
      warning: get('--warning', '#f5b942'),
      critical: get('--critical', '#ff5c5c'),
      demo: get('--demo', '#b48cff')
    }
  } finally {
    probe.remove()
  }
}

/** Something that happened at an instant (an alert firing or resolving), drawn as a vertical line. */
export interface ChartMark {
  /** ms since epoch. */
  at: number
  label: string
  severity: 'warning' | 'critical' | 'info'
  /** A firing is a solid line with a flag; a resolution a dashed one. */
  kind?: 'fired' | 'resolved'
  alertId?: number
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

/** A #rrggbb, rgb() or rgba() colour made translucent (readColours gives rgb(), or rgba() for a
 *  system colour such as forced colours' Highlight; the fallbacks are hex). */
export const withAlpha = (colour: string, alpha: number): string => {
  if (/^#[0-9a-f]{6}$/i.test(colour)) return `${colour}${Math.round(alpha * 255).toString(16).padStart(2, '0')}`
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(colour)
  if (!rgb) return colour
  const own = rgb[4] === undefined ? 1 : Number(rgb[4])
  return `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, ${+(own * alpha).toFixed(3)})`
}

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
          // Marks first, so a threshold's label box stays readable over a line passing through it.
          const severityColour = { warning: colours.warning, critical: colours.critical, info: colours.accent }
          for (const mark of spec.marks ?? []) {
            const x = Math.round(u.valToPos(mark.at / 1000, 'x', true))
            if (x < bbox.left || x > bbox.left + bbox.width) continue
            const resolved = mark.kind === 'resolved'
            const colour = resolved ? colours.good : severityColour[mark.severity]
            ctx.strokeStyle = colour
            ctx.lineWidth = (resolved ? 1.5 : 2) * ratio
            ctx.setLineDash(resolved ? [3 * ratio, 3 * ratio] : [])
            ctx.beginPath()
            ctx.moveTo(x, bbox.top)
            ctx.lineTo(x, bbox.top + bbox.height)
            ctx.stroke()
            // A small flag at the foot: ✖/▲ for a firing, ✓ for a resolution (shape, not colour
            // alone). The foot, because the threshold labels sit at the top right, where new marks land.
            const flag = resolved ? '✓' : mark.severity === 'critical' ? '✖' : mark.severity === 'warning' ? '▲' : '●'
            ctx.textAlign = 'center'
            const width = ctx.measureText(flag).width
            const foot = bbox.top + bbox.height
            ctx.fillStyle = colours.panel
            ctx.fillRect(x - width / 2 - 2 * ratio, foot - 14 * ratio, width + 4 * ratio, 14 * ratio)
            ctx.fillStyle = colour
            ctx.fillText(flag, x, foot - 3 * ratio)
          }
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

/** The x range (seconds) of the data, widened to include the marks (ms). */
export function withMarks(min: number | null, max: number | null, marks: readonly ChartMark[] = []): uPlot.Range.MinMax {
  let lo = min
  let hi = max
  for (const mark of marks) {
    const at = mark.at / 1000
    lo = lo === null ? at : Math.min(lo, at)
    hi = hi === null ? at : Math.max(hi, at)
  }
  return [lo, hi]
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
    scales: {
      // Widened to take in every mark: an alert may fire after the last snapshot drawn so far.
      x: { time: true, range: (_u, min, max) => withMarks(min, max, spec.marks) },
      y: spec.range ? { range: (_u, min, max) => spec.range!(min, max) } : {}
    },
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
      // "18:31:00" is about 55 px wide: uPlot's default 50 px between ticks ran the labels
      // together at 1366 px ("18:31:0018:32:00"), so ticks keep 90 px apart.
      { ...axis((_u, splits) => splits.map((s) => spec.formatTime(s * 1000))), space: 90 },
      { ...axis((_u, splits) => splits.map((v) => spec.format(v))), size: 70 }
    ],
    plugins: [overlays(spec, colours), latestInLegend()]
  }
}

/** The levels a session is judged by, as dashed lines on a reliability chart. */
export function levelLines(levels: EffectiveLevels | null, colours: ChartColours | null): ThresholdLine[] {
  if (!levels) return []
  return [
    { value: levels.warning, label: `warning < ${levels.warning}`, colour: colours?.warning ?? '#f5b942' },
    { value: levels.critical, label: `critical < ${levels.critical}`, colour: colours?.critical ?? '#ff5c5c' }
  ]
}

/** A reliability chart's y range: up to 100, down far enough to show the critical line. */
export const reliabilityRange =
  (levels: EffectiveLevels | null) =>
  (min: number): [number, number] => [Math.max(0, Math.min(min, levels?.critical ?? min) - 5), 100]
