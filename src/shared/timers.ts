// setTimeout/clearTimeout as a value: injectable, so tests move time by hand. One interface for
// the poller, the retention job, the tray and the browser host's event stream.
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}
