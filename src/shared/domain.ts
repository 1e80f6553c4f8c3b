// Domain types shared by the core and the UI. Times are ISO-8601 UTC strings at this boundary.
import { z } from 'zod'
import { ERROR_KINDS } from './error-kinds'

export const LiveSessionSchema = z.object({
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
  lastPolledAt: z.string().nullable()
})
export type LiveSession = z.infer<typeof LiveSessionSchema>

export const PollStateSchema = z.enum(['starting', 'polling', 'ok', 'error', 'offline', 'paused', 'stopped'])
export type PollState = z.infer<typeof PollStateSchema>

export const StatusSchema = z.object({
  /** "demo" while the embedded simulator is the only source of data. */
  mode: z.enum(['demo', 'connected']),
  connectionName: z.string(),
  pollState: PollStateSchema,
  /** Time of the last successful poll, if any. */
  lastUpdateAt: z.string().nullable(),
  /** Short reason of the last failed poll; cleared by the next success. */
  lastError: z.string().nullable(),
  /** Since when the service has been unreachable, while it is. */
  offlineSince: z.string().nullable(),
  paused: z.boolean(),
  pollIntervalSeconds: z.number()
})
export type Status = z.infer<typeof StatusSchema>

export const SessionsChangedSchema = z.object({
  at: z.string(),
  liveCount: z.number(),
  storedCount: z.number()
})
export type SessionsChanged = z.infer<typeof SessionsChangedSchema>

export const DiagnosticSchema = z.object({
  id: z.number(),
  connectionId: z.string().nullable(),
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
