// A window whose page crashed or hangs comes back by itself (issue 15: a wall box runs for
// weeks, nobody at the keyboard). A crash reloads the page at once; a page unresponsive for
// HANG_MS is ended and reloaded the same way. Each time the operator gets a notice and
// Diagnostics an entry. A page that keeps crashing is reloaded at most MAX_RELOADS times a
// minute, then left as it is, and said so: a reload loop helps nobody.
import type { BrowserWindow, RenderProcessGoneDetails } from 'electron'

export const HANG_MS = 15_000
export const MAX_RELOADS = 3
const WINDOW_MS = 60_000

export interface RendererWatchDeps {
  reload(): void
  /** A diagnostics entry (AppCore.recordProblem). */
  record(message: string): void
  /** A notice the operator sees (an OS notification). */
  notify(message: string): void
  clock?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

export function watchRenderer(window: BrowserWindow, deps: RendererWatchDeps): void {
  const clock = deps.clock ?? Date.now
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
  const clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as NodeJS.Timeout))
  let reloads: number[] = []
  let hang: unknown

  const comeBack = (what: string): void => {
    const now = clock()
    reloads = reloads.filter((at) => now - at < WINDOW_MS)
    if (reloads.length >= MAX_RELOADS) {
      deps.record(`${what}; not reloaded: it failed ${MAX_RELOADS} times within a minute`)
      deps.notify(`Eventwatch's window ${what} again and was not reloaded. Reopen it from the tray.`)
      return
    }
    reloads.push(now)
    deps.record(`${what}; the page was reloaded`)
    deps.notify(`Eventwatch's window ${what} and was reloaded.`)
    deps.reload()
  }

  window.webContents.on('render-process-gone', (_event: unknown, details: RenderProcessGoneDetails) => {
    if (hang !== undefined) clearTimer(hang)
    hang = undefined
    if (details.reason === 'clean-exit') return
    comeBack(`stopped (${details.reason}, exit code ${details.exitCode})`)
  })
  window.on('unresponsive', () => {
    if (hang !== undefined) return
    hang = setTimer(() => {
      hang = undefined
      // Ends the hung page: render-process-gone follows, and reloads it.
      window.webContents.forcefullyCrashRenderer()
    }, HANG_MS)
  })
  window.on('responsive', () => {
    if (hang !== undefined) clearTimer(hang)
    hang = undefined
  })
}
