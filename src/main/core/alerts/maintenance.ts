// Maintenance windows at work: whether one is in force at an instant (once, or every day or week
// from its first occurrence), and which window, if any, silences an alert. Pure but for the
// content-id lookup, so the recurrence is tested by its table.
import type { Alert } from '../../../shared/alerts'
import type { MaintenanceRecord } from '../store/maintenance'

const PERIOD_MS = { daily: 86_400_000, weekly: 7 * 86_400_000 } as const

export function inForce(w: Pick<MaintenanceRecord, 'startsAt' | 'endsAt' | 'repeat'>, now: number): boolean {
  if (now < w.startsAt) return false
  if (w.repeat === 'none') return now < w.endsAt
  const period = PERIOD_MS[w.repeat]
  const offset = (now - w.startsAt) % period
  return offset < w.endsAt - w.startsAt
}

/** Whether `w` covers this alert: everything, its connection, its content id, or its session. */
export function covers(w: MaintenanceRecord, alert: Pick<Alert, 'connectionId' | 'eventSessionId'>, contentId: () => string | null): boolean {
  if (w.connectionId === null) return true
  if (w.connectionId !== alert.connectionId) return false
  if (w.eventSessionId !== null) return alert.eventSessionId === w.eventSessionId
  if (w.contentId !== null) return alert.eventSessionId !== null && contentId() === w.contentId
  return true
}

/** The name of the window silencing `alert` at `now`, or null. */
export function silencingWindow(
  windows: readonly MaintenanceRecord[],
  alert: Pick<Alert, 'connectionId' | 'eventSessionId'>,
  now: number,
  contentId: () => string | null
): string | null {
  for (const w of windows) if (inForce(w, now) && covers(w, alert, contentId)) return w.name
  return null
}
