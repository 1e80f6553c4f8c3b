// The History screen's date filter: whole calendar days in the display time zone (local or UTC),
// as the instants pastSessions takes: `from` inclusive, `to` exclusive (start of the next day).
export type ZoneChoice = 'local' | 'utc'

/** ms since epoch of 00:00 on "YYYY-MM-DD" (+ days) in the zone; null when not a day. */
export function dayStartMs(day: string, zone: ZoneChoice, plusDays = 0): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])]
  const ms = zone === 'utc' ? Date.UTC(year, month, date + plusDays) : new Date(year, month, date + plusDays).getTime()
  // Reject days that roll over ("2026-02-31").
  const check = zone === 'utc' ? new Date(Date.UTC(year, month, date)) : new Date(year, month, date)
  const sameDay = zone === 'utc' ? check.getUTCDate() === date : check.getDate() === date
  return sameDay && Number.isFinite(ms) ? ms : null
}

export type DayRange = { ok: true; from?: string; to?: string } | { ok: false; problem: string }

/** Either end may be empty (open). Days are read in the zone the screens show times in. */
export function historyDayRange(fromDay: string, toDay: string, zone: ZoneChoice): DayRange {
  const from = fromDay ? dayStartMs(fromDay, zone) : undefined
  const to = toDay ? dayStartMs(toDay, zone, 1) : undefined
  if (from === null) return { ok: false, problem: 'The "From" day is not a date.' }
  if (to === null) return { ok: false, problem: 'The "To" day is not a date.' }
  if (from !== undefined && to !== undefined && from >= to) {
    return { ok: false, problem: 'The "From" day is after the "To" day: no session can match.' }
  }
  return {
    ok: true,
    ...(from !== undefined ? { from: new Date(from).toISOString() } : {}),
    ...(to !== undefined ? { to: new Date(to).toISOString() } : {})
  }
}
