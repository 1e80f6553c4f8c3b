// Maintenance windows (issue 16): planned silences. Inside one, alerts are still evaluated and
// kept, but not announced (no notification, no webhook). Shared by the CLI, Settings and the core.
import { z } from 'zod'
import { Instant } from './schema-parts'

export const MAINTENANCE_REPEATS = ['none', 'daily', 'weekly'] as const

export const MaintenanceInputSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    startsAt: Instant,
    endsAt: Instant,
    repeat: z.enum(MAINTENANCE_REPEATS).default('none'),
    /** Absent: every connection. */
    connectionId: z.string().min(1).max(200).optional(),
    /** Within that connection: only sessions of this content id, or only this session. */
    contentId: z.string().min(1).max(500).optional(),
    eventSessionId: z.string().min(1).max(500).optional()
  })
  .strict()
  .refine((w) => Date.parse(w.endsAt) > Date.parse(w.startsAt), { message: 'must be after the start', path: ['endsAt'] })
  .refine((w) => w.repeat !== 'daily' || Date.parse(w.endsAt) - Date.parse(w.startsAt) < 86_400_000, {
    message: 'a daily window must be shorter than a day',
    path: ['endsAt']
  })
  .refine((w) => w.repeat !== 'weekly' || Date.parse(w.endsAt) - Date.parse(w.startsAt) < 7 * 86_400_000, {
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
  connectionId: z.string().nullable(),
  connectionName: z.string().nullable(),
  contentId: z.string().nullable(),
  eventSessionId: z.string().nullable(),
  /** Who added it (a team server's user, or this machine's user); null for windows older than that. */
  createdBy: z.string().nullable(),
  /** Whether it holds announcements back right now. */
  inForce: z.boolean()
})
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>
