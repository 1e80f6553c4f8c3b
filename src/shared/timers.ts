// setTimeout/clearTimeout as a value: injectable, so tests move time by hand. One interface for
// the poller, the retention job, the tray and the browser host's event stream.
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The platform's own timers (Node's and the browser's alike). */
export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)
}
