// Maintenance windows (issue 16): planned silences. Inside one, alerts are still evaluated and
// kept, but not announced (no notification, no webhook). Shared by the CLI, Settings and the core.
// A repeating window repeats at the same time of day in its named IANA time zone, so a weekly
// "Saturday 22:00 Berlin" stays at 22:00 across daylight saving (issue 23).
import { z } from 'zod'
import { hasOffset } from './local-times'
import { Instant } from './schema-parts'
import { canonicalTimeZone, DAY_MS, wallClock, WEEK_MS } from './time-zones'

export const MAINTENANCE_REPEATS = ['none', 'daily', 'weekly'] as const

/** A window longer than this many days is "broad": added only when confirmed, marked in the header. */
export const LONG_WINDOW_DAYS = 7

/** Why a window is broad: it covers every connection, or it lasts longer than LONG_WINDOW_DAYS. */
export const BROAD_REASONS = ['everything', 'long'] as const
export type BroadReason = (typeof BROAD_REASONS)[number]

/** An instant that says its own offset: a bare "22:00" would be read in whichever zone the
 *  receiving machine is in (the team server's, not the operator's). */
const ZonedInstant = z
  .string()
  .max(40)
  .refine(hasOffset, 'needs a date, a time and an offset (Z or +01:00): without one it would be read in the zone of whichever machine reads it')

export const TimeZoneName = z
  .string()
  .max(100)
  .refine((name) => canonicalTimeZone(name) !== null, 'is not an IANA time zone name known here (such as Europe/Berlin or UTC)')

export const MaintenanceInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    startsAt: ZonedInstant,
    endsAt: ZonedInstant,
    repeat: z.enum(MAINTENANCE_REPEATS).default('none'),
    /** Where repeats keep their time of day. Absent: the zone of the machine that stores it. */
    timeZone: TimeZoneName.optional(),
    /** Absent: every connection. */
    connectionId: z.string().min(1).max(200).optional(),
    /** Within that connection: only sessions of this content id, or only this session. */
    contentId: z.string().min(1).max(500).optional(),
    eventSessionId: z.string().min(1).max(500).optional()
  })
  .strict()
  .refine((w) => Date.parse(w.endsAt) > Date.parse(w.startsAt), { message: 'must be after the start', path: ['endsAt'] })
  .refine((w) => w.repeat !== 'daily' || Date.parse(w.endsAt) - Date.parse(w.startsAt) < DAY_MS, {
    message: 'a daily window must be shorter than a day',
    path: ['endsAt']
  })
  .refine((w) => w.repeat !== 'weekly' || Date.parse(w.endsAt) - Date.parse(w.startsAt) < WEEK_MS, {
    message: 'a weekly window must be shorter than a week',
    path: ['endsAt']
  })
  .refine((w) => !(w.contentId || w.eventSessionId) || w.connectionId, {
    message: 'a content id or session belongs to a connection: give the connection too',
    path: ['connectionId']
  })
export type MaintenanceInput = z.input<typeof MaintenanceInputSchema>

export const MaintenanceWindowSchema = z.object({
  id: z.number(),
  name: z.string(),
  startsAt: Instant,
  endsAt: Instant,
  repeat: z.enum(MAINTENANCE_REPEATS),
  /** The IANA zone its times are kept in: repeats start at the same time of day there. */
  timeZone: z.string(),
  connectionId: z.string().nullable(),
  connectionName: z.string().nullable(),
  contentId: z.string().nullable(),
  eventSessionId: z.string().nullable(),
  /** Who added it (a team server's user, or this machine's user); null for windows older than that. */
  createdBy: z.string().nullable(),
  /** Whether it holds announcements back right now. */
  inForce: z.boolean(),
  /** Why it is broad (covers everything, lasts over a week); empty for an ordinary window. */
  broad: z.array(z.enum(BROAD_REASONS))
})
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>

/** Why a window silences more than an operator may expect: every connection, or more than a week. */
export function broadReasons(w: { startsAt: number; endsAt: number; connectionId?: string | null }): BroadReason[] {
  const reasons: BroadReason[] = []
  if (!w.connectionId) reasons.push('everything')
  if (w.endsAt - w.startsAt > LONG_WINDOW_DAYS * DAY_MS) reasons.push('long')
  return reasons
}

/** Whole days a window spans, counting a part day as one ("12 days"). */
export const spanDays = (lengthMs: number): number => Math.ceil(lengthMs / DAY_MS)

/** The sentence that says what a broad window would do, for a confirmation ("it covers …"). */
export function broadWhy(reasons: readonly BroadReason[], lengthMs: number): string {
  const why: string[] = []
  if (reasons.includes('everything')) why.push('it covers everything (no connection, content or session chosen), so no alert of any connection would be notified or sent to a webhook while it is in force')
  if (reasons.includes('long')) why.push(`it lasts ${spanDays(lengthMs)} days, more than ${LONG_WINDOW_DAYS}, so the alerts it covers would go unannounced all that time`)
  return why.join('; and ')
}

export const REPEAT_PERIOD_MS = { daily: DAY_MS, weekly: WEEK_MS } as const

/** Where a wall-clock reading falls in a day or a week (weeks from Monday 00:00: 1970-01-01 was
 *  a Thursday, three days after one). */
export const phaseOf = (wall: number, period: number): number => (((wall + 3 * DAY_MS) % period) + period) % period

/** Where each occurrence of a repeating window starts in its period, on its zone's clocks; null once. */
export function repeatPhase(repeat: (typeof MAINTENANCE_REPEATS)[number], zone: string, startsAt: number): number | null {
  return repeat === 'none' ? null : phaseOf(wallClock(zone, startsAt), REPEAT_PERIOD_MS[repeat])
}
