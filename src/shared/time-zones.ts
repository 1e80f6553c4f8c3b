// Wall-clock time in a named IANA time zone, with nothing but the platform's Intl (Node and every
// browser carry the tz database). A "wall clock" here is what a clock on the wall shows, as
// milliseconds since 1970-01-01T00:00 of that clock: `Date.UTC(y, m, d, h, min)` of the reading.
// Shared by the core (repeating maintenance windows), the CLI and the renderer (typed times).

export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS
export const WEEK_MS = 7 * DAY_MS

const formatters = new Map<string, Intl.DateTimeFormat>()

/** One formatter per zone: making one costs far more than using it. */
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric'
    })
    formatters.set(zone, f)
  }
  return f
}

const mod = (a: number, b: number): number => ((a % b) + b) % b

/** The zone's offset from UTC at `instant`, in ms (Europe/Berlin in summer: +7,200,000). */
export function offsetAt(zone: string, instant: number): number {
  const whole = instant - mod(instant, 1000) // the formatter shows whole seconds
  const part: Record<string, number> = {}
  for (const p of formatter(zone).formatToParts(whole)) if (p.type !== 'literal') part[p.type] = Number(p.value)
  const reading = Date.UTC(part.year ?? 1970, (part.month ?? 1) - 1, part.day ?? 1, part.hour ?? 0, part.minute ?? 0, part.second ?? 0)
  return reading - whole
}

/** What the zone's clocks show at `instant`. */
export const wallClock = (zone: string, instant: number): number => instant + offsetAt(zone, instant)

/**
 * The instant at which the zone's clocks show `wall`. Decided as RFC 5545 and Temporal's
 * 'compatible' do (and JavaScript's own Date with local times):
 * - `exact`: the reading happens once;
 * - `twice`: it happens twice (clocks going back): the first of the two, at the earlier offset;
 * - `skipped`: it never happens (clocks jumping forward): the instant it would have been had
 *   they not jumped, which the clocks show as the reading plus the jump (02:30 → 03:30).
 */
export function instantAt(zone: string, wall: number): { instant: number; kind: 'exact' | 'twice' | 'skipped'; before: number; after: number } {
  // Offsets a day either side: no zone changes its clocks twice within two days.
  const before = offsetAt(zone, wall - DAY_MS)
  const after = offsetAt(zone, wall + DAY_MS)
  const fits = [...new Set([before, after])].map((o) => wall - o).filter((t) => wallClock(zone, t) === wall)
  if (fits.length === 0) return { instant: wall - before, kind: 'skipped', before, after }
  return { instant: Math.min(...fits), kind: fits.length === 1 ? 'exact' : 'twice', before, after }
}

/**
 * The IANA name of a zone as Intl spells it ("europe/berlin" → "Europe/Berlin", links such as
 * "US/Eastern" → "America/New_York"), or null for anything else: unknown names, and fixed offsets
 * ("+01:00") that some engines accept but that follow no daylight saving.
 */
export function canonicalTimeZone(name: string): string | null {
  let resolved: string
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
  return resolved === 'UTC' || ianaNames().has(resolved) ? resolved : null
}

let names: Set<string> | undefined
function ianaNames(): Set<string> {
  names ??= new Set(Intl.supportedValuesOf('timeZone'))
  return names
}

/** Every IANA zone this platform knows, for a chooser (UTC first, then alphabetical). */
export const timeZoneNames = (): string[] => ['UTC', ...[...ianaNames()].sort()]

/** This machine's (or browser's) zone, or null when it has none Intl can name (TZ unset in a
 *  container gives "Etc/Unknown"). */
export const systemTimeZone = (): string | null => canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone)

/** "+02:00", "-05:00", "+05:30". */
export function offsetText(offset: number): string {
  const minutes = Math.round(Math.abs(offset) / MINUTE_MS)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
}

/** The instant in ISO 8601 as the zone's clocks show it, with its offset: "2026-03-28T22:00:00+01:00". */
export function zonedIso(zone: string, instant: number): string {
  const offset = offsetAt(zone, instant)
  return `${new Date(instant + offset).toISOString().slice(0, 19)}${offsetText(offset)}`
}
