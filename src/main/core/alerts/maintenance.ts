// Maintenance windows at work: whether one is in force at an instant (once, or every day or week
// at the same time of day on its zone's clocks), and which window, if any, silences an alert.
// Pure but for the content-id lookup, so the recurrence is tested by its table.
//
// An occurrence starts when the zone's clocks show the first start's time of day (on the same
// weekday, for weekly windows) and lasts as long as the first one did. On the nights the clocks
// change (time-zones.ts, instantAt): a start the clocks skip (02:30 when they jump from 02:00 to
// 03:00) begins an hour late, at 03:30; a start they show twice (02:30 when they go back) begins
// at the first of the two.
import type { Alert } from '../../../shared/alerts'
import { broadReasons, spanDays } from '../../../shared/maintenance'
import { DAY_MS, instantAt, wallClock } from '../../../shared/time-zones'
import type { MaintenanceRecord } from '../store/maintenance'

type Timing = Pick<MaintenanceRecord, 'startsAt' | 'endsAt' | 'repeat' | 'timeZone'>

export function inForce(w: Timing, now: number): boolean {
  if (now < w.startsAt) return false
  if (w.repeat === 'none') return now < w.endsAt
  const length = w.endsAt - w.startsAt
  const days = w.repeat === 'daily' ? 1 : 7
  const first = wallClock(w.timeZone, w.startsAt)
  const day = (wall: number): number => Math.floor(wall / DAY_MS)
  const k = Math.floor((day(wallClock(w.timeZone, now)) - day(first)) / days)
  // The occurrence of now's date, the one before, and (around a midnight the clocks go back) after.
  for (const j of [k - 1, k, k + 1]) {
    if (j < 0) continue
    const start = j === 0 ? w.startsAt : instantAt(w.timeZone, first + j * days * DAY_MS).instant
    if (start <= now && now < start + length) return true
  }
  return false
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

/** A window in force as the situation names it. */
export interface WindowInForce {
  name: string
  /** It covers everything: every alert is held back. */
  everything: boolean
  /** Days it spans when longer than a week, else null. */
  longDays: number | null
}

/** The windows in force as the header names them: those covering everything first, then the
 *  long ones, then by start. */
export function windowsNamed(windows: readonly MaintenanceRecord[]): WindowInForce[] {
  const named = windows.map((w) => {
    const reasons = broadReasons(w)
    return { w, everything: reasons.includes('everything'), long: reasons.includes('long') }
  })
  named.sort((a, b) => Number(b.everything) - Number(a.everything) || Number(b.long) - Number(a.long) || a.w.startsAt - b.w.startsAt || a.w.id - b.w.id)
  return named.map(({ w, everything, long }) => ({ name: w.name, everything, longDays: long ? spanDays(w.endsAt - w.startsAt) : null }))
}
