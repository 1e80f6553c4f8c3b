// Domain types shared by the core and the UI. Times are ISO-8601 UTC strings at this boundary.
import { z } from 'zod'
import { SessionAlertSchema, SiteAlertSchema } from './alerts'
import { ChartPointSchema } from './chart-point'
import { ERROR_KINDS } from './error-kinds'
import { ConnectionPollStatusSchema, PollSummarySchema } from './poll-status'
import { EffectiveLevelsSchema, HealthSchema } from './reliability'
import { EpochSchema } from './revisions'
import { SessionKeySchema } from './schema-parts'

/** A cached session as the core hands it out: the service's record under its own names, and
 *  what the core decided of it (its reliability on 0–100, its health under its levels). */
export const SessionSchema = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  eventSessionId: z.string(),
  eventName: z.string().nullable(),
  contentId: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  hasEnded: z.boolean(),
  viewersCount: z.number(),
  reliabilityScore: z.number(),
  cdnTraffic: z.number(),
  ecdnTraffic: z.number(),
  lastPolledAt: z.string().nullable(),
  /** reliabilityScore on 0–100, by its connection's scale; null when it is not a number. */
  reliability: z.number().nullable(),
  health: HealthSchema,
  /** The levels its health was judged by (the session's own, or the settings'). */
  levels: EffectiveLevelsSchema
})
export type Session = z.infer<typeof SessionSchema>

/** A session on Live, the wall and the tray: with its most pressing alert and its newest snapshot. */
export const LiveSessionSchema = SessionSchema.extend({
  alert: SessionAlertSchema.nullable(),
  /** Its worst site alert firing, whatever its most pressing alert: the office, its figure, the
   *  severity. Null when no site alert fires; absent from a core that does not say. */
  siteAlert: SiteAlertSchema.nullable().optional(),
  /** The newest snapshot, for the trends (null before the first). */
  latestPoint: ChartPointSchema.nullable()
})
export type LiveSession = z.infer<typeof LiveSessionSchema>

/** Every live session of the connections being polled, at one revision of the board. */
export const LiveBoardSchema = z.object({
  /** Grows with every change, within its epoch (shared/revisions.ts: how a face weighs them). */
  revision: z.number().int().min(0),
  /** Which count the revision is of: a new one each time the board is rebuilt (the core starts). */
  epoch: EpochSchema,
  sessions: z.array(LiveSessionSchema)
})
export type LiveBoard = z.infer<typeof LiveBoardSchema>

export const PollStateSchema = z.enum(['starting', 'polling', 'ok', 'error', 'offline', 'paused', 'stopped'])
export type PollState = z.infer<typeof PollStateSchema>

export const StatusSchema = z.object({
  /** "demo" while the embedded simulator is the only source of data. */
  mode: z.enum(['demo', 'connected']),
  connectionName: z.string(),
  /** Each connection's polling status, decided by the core: what the faces show, worst first. */
  connections: z.array(ConnectionPollStatusSchema),
  /** The app's polling status summed from the connections' (offline only when none polls). */
  summary: PollSummarySchema,
  /** A problem of the app's own, no connection's (alerts that could not be stored). */
  problem: z.string().nullable(),
  /** The pollers' states summed, worst first (for scripts and tests; screens show `connections`). */
  pollState: PollStateSchema,
  /** Time of the last successful poll of every connection (the oldest of them), if any. */
  lastUpdateAt: z.string().nullable(),
  /** The newest data the cache holds of the connections polled, from this run or an earlier one:
   *  what the screens show while no poll has succeeded yet. */
  lastGoodAt: z.string().nullable(),
  /** Short reason of the last failed poll of any connection, or a problem of the app's own
   *  (alerts that could not be stored); cleared by the next success. */
  lastError: z.string().nullable(),
  /** Since when a service has been unreachable (the earliest), while one is. */
  offlineSince: z.string().nullable(),
  paused: z.boolean(),
  pollIntervalSeconds: z.number()
})
export type Status = z.infer<typeof StatusSchema>

/** Pushed after every unit of work that changed the cache: the live rows that changed (with their
 *  health, alert and newest snapshot) and those that left Live, so no face has to ask again. */
export const SessionsChangedSchema = z.object({
  revision: z.number().int().min(0),
  /** The board's epoch (see LiveBoardSchema): a push of another epoch is no diff of the board held. */
  epoch: EpochSchema,
  at: z.string(),
  liveCount: z.number(),
  storedCount: z.number(),
  /** Live rows that are new or differ from the last push. */
  rows: z.array(LiveSessionSchema),
  /** Sessions that left Live: ended, or their connection is no longer polled (History keeps them). */
  removed: z.array(SessionKeySchema)
})
export type SessionsChanged = z.infer<typeof SessionsChangedSchema>

export const DiagnosticSchema = z.object({
  id: z.number(),
  connectionId: z.string().nullable(),
  /** The name of the connection it belongs to; null for the app's own (a webhook, the cache). */
  connectionName: z.string().nullable(),
  at: z.string(),
  kind: z.enum(ERROR_KINDS),
  endpoint: z.string(),
  message: z.string()
})
export type Diagnostic = z.infer<typeof DiagnosticSchema>

/** A connection became unreachable, or reachable again: said once per change. */
export const ConnectivityChangedSchema = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  online: z.boolean(),
  at: z.string(),
  reason: z.string().nullable()
})
export type ConnectivityChanged = z.infer<typeof ConnectivityChangedSchema>
