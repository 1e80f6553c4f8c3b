// Progress of a long sync, on stderr. On a terminal: one line redrawn in place,
//   sessions 3/20  viewers 12,500/48,000  ▕█████░░░░░░░░░░░░░░░▏ 26%  Town hall
// Elsewhere (a log file, CI): the same text as plain lines, at most one per interval, since a
// log full of counters is worse than none. Either way done() ends with one summary line.
//
// Callers report any number of phases by name; each keeps its own count, shown in the order
// first reported. The bar and percentage follow the phase reported last. Nothing here knows
// what a sync is. Lines and details may quote the service (a session's or a connection's name, a
// problem's words): they are redacted and made plain (shared/plain-text.ts), so none can redraw
// the terminal, reorder its line or forge another.
import { plainText } from '../../shared/plain-text'
import { redact } from '../core/net/redact'

export interface ProgressState {
  /** What is being counted ("sessions", "viewers"); one counter per phase. */
  phase: string
  done: number
  /** Unknown totals show as a bare count, with no bar. */
  total?: number
  /** Free text after the counters (the session at hand); dropped first when space is short. */
  detail?: string
}

export interface Progress {
  update(state: ProgressState): void
  /** A line of its own (a warning, say), printed without garbling the bar. */
  log(line: string): void
  /** Clears the bar and prints the summary; the next update starts afresh. */
  done(summary: string): void
}

export interface ProgressStream {
  write(chunk: string): boolean
  isTTY?: boolean
  columns?: number
}

export interface ProgressOptions {
  /** Plain-line mode: least time between two progress lines. */
  lineIntervalMs?: number
  /** Terminal mode: least time between two redraws (a sync may report 100,000 viewers). */
  redrawIntervalMs?: number
  /** Bar cells. */
  barWidth?: number
}

const COUNT = new Intl.NumberFormat('en-US')
const CLEAR_LINE = '\r\x1b[K'

const percent = (s: ProgressState): number | undefined =>
  s.total === undefined || s.total <= 0 ? undefined : Math.floor((Math.min(s.done, s.total) / s.total) * 100)

function counter(s: ProgressState): string {
  return `${s.phase} ${COUNT.format(s.done)}${s.total === undefined ? '' : `/${COUNT.format(s.total)}`}`
}

function bar(s: ProgressState, width: number): string | undefined {
  if (s.total === undefined || s.total <= 0) return undefined
  const filled = Math.floor((Math.min(Math.max(s.done, 0), s.total) / s.total) * width)
  return `▕${'█'.repeat(filled)}${'░'.repeat(width - filled)}▏ ${percent(s)}%`
}

/** Joins the parts, shortening the detail (then the whole line) to fit `max` characters. */
function fit(parts: string[], detail: string | undefined, max: number | undefined): string {
  const head = parts.join('  ')
  if (max === undefined) return detail ? `${head}  ${detail}` : head
  if (head.length > max) return `${head.slice(0, Math.max(0, max - 1))}…`
  if (!detail) return head
  const room = max - head.length - 2
  if (room < 4) return head
  return `${head}  ${detail.length > room ? `${detail.slice(0, room - 1)}…` : detail}`
}

export function createProgress(
  stream: ProgressStream,
  clock: () => number = Date.now,
  options: ProgressOptions = {}
): Progress {
  const tty = stream.isTTY === true
  const lineInterval = options.lineIntervalMs ?? 1000
  const redrawInterval = options.redrawIntervalMs ?? 100
  const barWidth = options.barWidth ?? 20

  const phases = new Map<string, ProgressState>()
  let latest: ProgressState | undefined
  let shown = false // terminal: a bar is on screen
  let lastOutput = -Infinity
  let lastText = '' // what is on screen (terminal) or was printed last (plain lines)

  const render = (withBar: boolean): string => {
    const parts = [...phases.values()].map(counter)
    const tail = latest && withBar ? bar(latest, barWidth) : latest && percent(latest) !== undefined ? `(${percent(latest)}%)` : undefined
    if (tail) parts.push(tail)
    // One column short of the width: writing the last column makes some terminals wrap.
    const max = tty && stream.columns ? stream.columns - 1 : undefined
    return fit(parts, latest?.detail, max)
  }

  const draw = (): void => {
    const text = render(true)
    if (shown && text === lastText) return
    stream.write(`${CLEAR_LINE}${text}`)
    shown = true
    lastText = text
  }

  const clear = (): void => {
    if (shown) stream.write(CLEAR_LINE)
    shown = false
  }

  return {
    update(state) {
      const isNew = !phases.has(state.phase)
      const copy = { ...state, detail: state.detail === undefined ? undefined : plainText(state.detail) }
      phases.set(state.phase, copy)
      latest = copy
      const now = clock()
      if (tty) {
        // A new phase or a finished one is worth a redraw at once; the rest waits its turn.
        const finished = state.total !== undefined && state.done >= state.total
        if (isNew || finished || now - lastOutput >= redrawInterval) {
          draw()
          lastOutput = now
        }
        return
      }
      if (now - lastOutput < lineInterval) return
      const text = render(false)
      if (text === lastText) return
      stream.write(`${text}\n`)
      lastText = text
      lastOutput = now
    },

    log(text) {
      const line = plainText(redact(text)) // a problem's words may quote what the service echoed
      if (!tty) {
        stream.write(`${line}\n`)
        return
      }
      const redraw = shown
      clear()
      stream.write(`${line}\n`)
      if (redraw) draw()
    },

    done(summary) {
      clear()
      stream.write(`${plainText(redact(summary))}\n`)
      phases.clear()
      latest = undefined
      lastOutput = -Infinity
      lastText = ''
    }
  }
}
