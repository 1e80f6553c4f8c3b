// What the operator's screens ask the core for: the live wall's trends, a session's charts,
// breakdowns and viewers, past sessions, exports. Times are ISO-8601 UTC strings at this
// boundary, except chart points (ms since epoch: charts compute with them).
import { z } from 'zod'
import { ChartPointSchema } from './chart-point'
import { SessionSchema } from './domain'
import { HealthSchema } from './reliability'
import { Id, Instant, SessionKeySchema } from './schema-parts'

export { SessionKeySchema, type SessionKey } from './schema-parts'
export { ChartPointSchema, type ChartPoint } from './chart-point'

const Limit = z.number().int().min(0).max(1000)
const Offset = z.number().int().min(0).max(10_000_000)

export const ChartSeriesSchema = z.object({
  points: z.array(ChartPointSchema),
  /** Snapshots in the window before any bucketing. */
  total: z.number(),
  bucketed: z.boolean()
})
export type ChartSeries = z.infer<typeof ChartSeriesSchema>

export const SessionChartArgsSchema = SessionKeySchema.extend({
  /** Only snapshots at or after this instant. */
  from: Instant.optional(),
  maxPoints: z.number().int().min(2).max(2000).optional()
}).strict()

/** The trends of the live sessions on screen, in one request (Live and the wall). */
export const LiveTrendsArgsSchema = z
  .object({
    sessions: z.array(SessionKeySchema).max(500),
    /** Snapshots at or after this instant (the last hour). */
    from: Instant,
    maxPoints: z.number().int().min(2).max(500).optional()
  })
  .strict()
export const LiveTrendsSchema = z.object({
  trends: z.array(z.object({ connectionId: z.string(), eventSessionId: z.string(), points: z.array(ChartPointSchema) }))
})
export type LiveTrends = z.infer<typeof LiveTrendsSchema>

export const VIEWER_SORTS = [
  'viewerId', 'deviceType', 'os', 'app', 'siteCode', 'connectionType', 'publicIp', 'reliabilityScore',
  'rebufferingEvents', 'rebufferingTime', 'viewingTime', 'rebufferingRatio', 'startedAt', 'endedAt',
  'cdnTraffic', 'ecdnTraffic', 'cdnResponses', 'cdnErrors', 'cdnErrorRate'
] as const
export type ViewerSort = (typeof VIEWER_SORTS)[number]

/** Absent: no filter. null: only viewers the service said nothing about (a breakdown's "unknown"). */
export const ViewerFilterSchema = z
  .object({
    text: z.string().max(200).optional(),
    siteCode: z.number().nullable().optional(),
    deviceType: z.string().max(200).nullable().optional(),
    os: z.string().max(200).nullable().optional(),
    app: z.string().max(200).nullable().optional(),
    connectionType: z.string().max(200).nullable().optional(),
    /** Only the viewers still watching when the list was fetched (a start, no end). */
    watching: z.literal(true).optional()
  })
  .strict()
export type ViewerFilter = z.infer<typeof ViewerFilterSchema>

export const ViewerPageArgsSchema = SessionKeySchema.extend({
  sort: z.enum(VIEWER_SORTS),
  descending: z.boolean().optional(),
  filter: ViewerFilterSchema.optional(),
  limit: Limit.optional(),
  offset: Offset.optional()
}).strict()

export const ViewerRowSchema = z.object({
  viewerId: z.string(),
  deviceType: z.string().nullable(),
  os: z.string().nullable(),
  app: z.string().nullable(),
  siteCode: z.number().nullable(),
  /** The name the operator gave the site (Settings → Sites); null when unnamed. */
  siteName: z.string().nullable(),
  connectionType: z.string().nullable(),
  publicIp: z.string().nullable(),
  privateIp: z.string().nullable(),
  reliabilityScore: z.number().nullable(),
  rebufferingEvents: z.number().nullable(),
  rebufferingTime: z.number().nullable(),
  viewingTime: z.number().nullable(),
  rebufferingRatio: z.number().nullable(),
  /** reliabilityScore on 0–100 (the connection's scale), and its health under the session's levels. */
  reliability: z.number().nullable(),
  health: HealthSchema,
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  cdnTraffic: z.number().nullable(),
  ecdnTraffic: z.number().nullable(),
  cdnResponses: z.number().nullable(),
  cdnErrors: z.number().nullable(),
  cdnErrorRate: z.number().nullable()
})
export type ViewerRow = z.infer<typeof ViewerRowSchema>

export const ViewerPageSchema = z.object({
  rows: z.array(ViewerRowSchema),
  total: z.number(),
  /** When the cached list was fetched; null when none is cached. */
  fetchedAt: z.string().nullable()
})
export type ViewerPage = z.infer<typeof ViewerPageSchema>

/** A viewer's every field under the API's names, network connections included. */
export const ViewerDetailArgsSchema = SessionKeySchema.extend({ viewerId: Id }).strict()
export const ViewerDetailSchema = z
  .object({
    /** Every field the service sent, under its own names. */
    viewer: z.record(z.string(), z.unknown()),
    /** Its reliabilityScore on 0–100, and its health under the session's levels. */
    reliability: z.number().nullable(),
    health: HealthSchema
  })
  .nullable()
export type ViewerDetail = z.infer<typeof ViewerDetailSchema>

export const BREAKDOWN_DIMENSIONS = ['site', 'deviceType', 'os', 'app', 'connectionType'] as const
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number]

export const BreakdownArgsSchema = SessionKeySchema.extend({ dimension: z.enum(BREAKDOWN_DIMENSIONS) }).strict()
export const BreakdownRowSchema = z.object({
  key: z.string().nullable(),
  /** For sites: the name the operator gave it; null otherwise. */
  name: z.string().nullable(),
  viewers: z.number(),
  /** Mean reliability on 0–100, and its health under the session's levels. */
  avgReliability: z.number().nullable(),
  health: HealthSchema,
  rebufferingRatio: z.number().nullable(),
  cdnErrorRate: z.number().nullable(),
  /** For sites: the open site alert about it (the core's verdict), or null. */
  alert: z.object({ id: z.number(), state: z.string(), severity: z.enum(['warning', 'critical']), summary: z.string() }).nullable()
})
export type BreakdownRow = z.infer<typeof BreakdownRowSchema>

export const PAST_SESSION_SORTS = ['started', 'name', 'viewers', 'reliability'] as const
export type PastSessionSort = (typeof PAST_SESSION_SORTS)[number]

export const PastSessionsArgsSchema = z
  .object({
    connectionId: Id.optional(),
    /** Part of the event name, content id or session id. */
    search: z.string().max(200).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    sort: z.enum(PAST_SESSION_SORTS),
    descending: z.boolean().optional(),
    includeLive: z.boolean().optional(),
    limit: Limit.optional(),
    offset: Offset.optional()
  })
  .strict()

/** A cached session as the live table has it, with what the cache learned of it over time. */
export const PastSessionSchema = SessionSchema.extend({
  endedObservedAt: z.string().nullable(),
  firstSeenAt: z.string(),
  /** Not nullable here, unlike the live table's. */
  lastPolledAt: z.string(),
  peakViewers: z.number(),
  /** Whether its connection is polled now. A session last seen live on a connection no longer
   *  polled (removed, disabled, replaced) is kept here, not on Live. */
  watched: z.boolean(),
  viewerListCount: z.number().nullable(),
  viewerListFetchedAt: z.string().nullable(),
  /** Where peakViewers comes from (the core decides): the most a poll counted while the session was
   *  live, or reconstructed from the viewers' start and end times (with when); null when neither is known. */
  peakSource: z.enum(['viewers', 'polls']).nullable(),
  peakAt: z.string().nullable(),
  /** With a peak from the viewers' times: how many viewers had no usable times (no start, or an end
   *  before it) and were left out of it. Null otherwise. */
  peakUntimed: z.number().nullable(),
  /** An ended session's end, best known first (the core decides): its viewers' last endedAt, the
   *  service's last update of the record, or when Eventwatch first saw it ended. */
  endedAt: z.string().nullable(),
  endedAtSource: z.enum(['viewers', 'service', 'observed']).nullable()
})
export type PastSession = z.infer<typeof PastSessionSchema>

export const PastSessionsPageSchema = z.object({
  rows: z.array(PastSessionSchema),
  total: z.number(),
  /** The newest poll in the cache: "showing cached data as of …". */
  cachedAsOf: z.string().nullable()
})
export type PastSessionsPage = z.infer<typeof PastSessionsPageSchema>

export const EXPORT_KINDS = ['session', 'snapshots', 'viewers'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

/** One chunk of an export, so the UI can show progress and stay responsive on large ones. */
export const ExportChunkArgsSchema = SessionKeySchema.extend({
  kind: z.enum(EXPORT_KINDS),
  offset: Offset,
  limit: z.number().int().min(1).max(5000)
}).strict()
export const ExportChunkSchema = z.object({
  /** Records under the API's own field names (as `eventwatch export` writes them). */
  records: z.array(z.record(z.string(), z.unknown())),
  /** Records in the whole export. */
  total: z.number()
})
export type ExportChunk = z.infer<typeof ExportChunkSchema>

/** A name the operator gave a site code (the API only gives the number). */
export const SiteNameSchema = z.object({ code: z.number(), name: z.string() })
export type SiteName = z.infer<typeof SiteNameSchema>
export const SetSiteNameArgsSchema = z
  .object({
    code: z.number().finite(),
    /** null forgets the name. One line, 1–80 characters once trimmed. */
    name: z
      .string()
      .trim()
      .min(1, 'a site name cannot be empty (to remove a name, remove it)')
      .max(80, 'a site name has at most 80 characters')
      .regex(/^[^\r\n\t]*$/, 'a site name is one line')
      .nullable()
  })
  .strict()
