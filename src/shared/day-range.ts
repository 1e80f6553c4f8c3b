// Whole local days ("2026-11-14" to "2026-11-21") as the UTC instants the API's filters take.
export function localDayRange(fromDay: string, toDay: string): { from: string; to: string } | null {
  const from = Date.parse(`${fromDay}T00:00:00`) // no zone: local time
  const to = Date.parse(`${toDay}T23:59:59.999`)
  if (Number.isNaN(from) || Number.isNaN(to) || from > to) return null
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() }
}

/** "YYYY-MM-DD" of a local day, for date inputs. */
export function localDay(ms: number): string {
  const d = new Date(ms)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}
