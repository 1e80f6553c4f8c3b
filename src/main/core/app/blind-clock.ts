// Monitor-blind on its own clock (issue 16): "no successful poll for N minutes" is judged every
// few seconds, not only after poll attempts. During back-off the next attempt may be minutes
// away, and the alert fired that much late (measured 2.2–2.5 min after polling broke, for a
// 2 min rule). The same tick ends snoozes on time.
import type { Timers } from '../../../shared/timers'

/** How often the clock ticks: a blind alert fires at most this late. */
export const BLIND_CHECK_MS = 10_000

/** Calls `check` every `everyMs` until the returned stop is called. */
export function startBlindClock(timers: Timers, check: () => void, everyMs = BLIND_CHECK_MS): () => void {
  let handle: unknown
  let stopped = false
  const tick = (): void => {
    if (stopped) return
    try {
      check()
    } finally {
      if (!stopped) handle = timers.setTimeout(tick, everyMs)
    }
  }
  handle = timers.setTimeout(tick, everyMs)
  return () => {
    stopped = true
    timers.clearTimeout(handle)
  }
}
