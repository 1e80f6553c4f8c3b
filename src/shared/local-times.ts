// A time as a person types it ("2026-03-28T22:00", or with an offset "…+01:00"), read as an
// instant in a named zone: never silently in whatever zone the reading machine happens to be in.
// The CLI's --from/--to and the Settings form's date-time boxes both come through here.
import { instantAt, offsetText, zonedIso } from './time-zones'

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i

/** Whether `text` is an ISO 8601 date-time that says its own offset (Z or ±hh:mm). */
export const hasOffset = (text: string): boolean => WITH_OFFSET.test(text.trim()) && !Number.isNaN(Date.parse(text))

export type ReadTime =
  | { ok: true; instant: number; /** Set when the zone decided something worth saying. */ note: string | null; zoned: boolean }
  | { ok: false; reason: string }

/** The wall-clock reading of "YYYY-MM-DDTHH:MM[:SS[.mmm]]", or null when it is not one (or not a real date). */
export function parseWallClock(text: string): number | null {
  const m = LOCAL.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms)
  // Date.UTC rolls 2026-02-30 over into March, and 24:00 into the next day: refused instead.
  const back = new Date(wall)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || back.getUTCHours() !== h || s > 59) return null
  return wall
}

/**
 * `text` as an instant: its own offset when it has one, otherwise read in `zone`. A reading the
 * zone skips (02:30 on the night the clocks jump from 02:00 to 03:00) is refused with the reason;
 * one it shows twice (the night they go back) is the first, and `note` says so.
 */
export function readTime(text: string, zone: string): ReadTime {
  if (hasOffset(text)) return { ok: true, instant: Date.parse(text), note: null, zoned: false }
  const wall = parseWallClock(text)
  if (wall === null) return { ok: false, reason: `"${text}" is not a date and time (YYYY-MM-DDTHH:MM, optionally with an offset such as +01:00 or Z)` }
  const at = instantAt(zone, wall)
  const shown = text.trim()
  if (at.kind === 'skipped') {
    return {
      ok: false,
      reason: `${shown} does not exist in ${zone}: the clocks jump from ${offsetText(at.before)} to ${offsetText(at.after)} over it. Give a time outside the jump, or an offset`
    }
  }
  const note = at.kind === 'twice' ? `${shown} happens twice in ${zone} (the clocks go back): read as the first, ${zonedIso(zone, at.instant)}; give an offset for the other` : null
  return { ok: true, instant: at.instant, note, zoned: true }
}
