// The app API: every request the UI can make and every event the core pushes.
// Preload, IPC handlers, the browser host and the renderer client all derive from this file,
// so a request cannot exist in one face and not another.
import { z } from 'zod'
import { AlertRulesSchema, AlertsChangedSchema, AlertsPageSchema, ListAlertsArgsSchema, SNOOZE_CHOICES } from './alerts'
import { ConnectionInputSchema, ConnectionTestReportSchema, ConnectionViewSchema } from './connections'
import {
  AppSettingsSchema,
  CadenceSettingsSchema,
  DisplaySettingsSchema,
  DesktopSettingsSchema,
  ReliabilityThresholdsSchema,
  RetentionSettingsSchema
} from './settings'
import {
  BreakdownArgsSchema,
  BreakdownRowSchema,
  ChartSeriesSchema,
  ExportChunkArgsSchema,
  ExportChunkSchema,
  LiveTrendsArgsSchema,
  LiveTrendsSchema,
  PastSessionsArgsSchema,
  PastSessionsPageSchema,
  SessionChartArgsSchema,
  ViewerDetailArgsSchema,
  ViewerDetailSchema,
  ViewerPageArgsSchema,
  ViewerPageSchema,
  SetSiteNameArgsSchema,
  SiteNameSchema
} from './screens'
import {
  ConnectivityChangedSchema,
  DiagnosticSchema,
  LiveBoardSchema,
  LiveSessionSchema,
  SessionsChangedSchema,
  StatusSchema
} from './domain'
import { Id, Instant } from './schema-parts'
import { WebhookInputSchema, WebhookTestResultSchema, WebhookViewSchema } from './webhooks'
import { MaintenanceInputSchema, MaintenanceWindowSchema } from './maintenance'
import { AuditEntrySchema, IdentitySchema, TeamServerViewSchema, UserName, UserViewSchema, USER_ROLES } from './team'
import type { Actor, AuditEntry, Role } from './team'
import { SessionReportArgsSchema, SessionReportFileSchema, SessionStoryArgsSchema, SessionStorySchema } from './session-story'

const NoArgs = z.object({}).strict()

// Strict at every level, like every other argument: a stray key is refused, not silently dropped.
const StrictThresholds = ReliabilityThresholdsSchema.strict()
const StrictAlertRules = z.strictObject({
  reliabilityBelow: AlertRulesSchema.shape.reliabilityBelow.strict(),
  reliabilityFalling: AlertRulesSchema.shape.reliabilityFalling.strict(),
  viewersDropping: AlertRulesSchema.shape.viewersDropping.strict(),
  monitorBlind: AlertRulesSchema.shape.monitorBlind.strict(),
  // Newer than the others: a save that does not know it leaves it as it was.
  siteReliability: AlertRulesSchema.shape.siteReliability.strict().optional(),
  repeatCritical: AlertRulesSchema.shape.repeatCritical.strict().optional()
})
/** One request of the app API: its arguments, its answer, and the least role that may make it
 *  (a viewer reads; an operator also acts on alerts; the rest is the administrator's). */
interface RequestEntry {
  role: Role
  args: z.ZodType
  result: z.ZodType
}

export const requests = {
  getStatus: { role: 'viewer', args: NoArgs, result: StatusSchema },
  /** Who this page is to the core: a team server's user and role, or the machine's administrator. */
  getIdentity: { role: 'viewer', args: NoArgs, result: IdentitySchema },
  /** Every live session of the connections being polled; sessionsChanged patches it from then on. */
  listLiveSessions: { role: 'viewer', args: NoArgs, result: LiveBoardSchema },
  getSession: {
    role: 'viewer',
    args: z.object({ connectionId: Id, eventSessionId: Id }).strict(),
    result: LiveSessionSchema.nullable()
  },
  refreshNow: { role: 'operator', args: NoArgs, result: z.object({ startedAt: z.string() }) },
  /** One session's record, snapshot and viewer list, now (through its poller, pushed as usual). */
  refreshSession: {
    role: 'operator',
    args: z.object({ connectionId: Id, eventSessionId: Id }).strict(),
    result: z.object({ viewers: z.number() })
  },
  /** Pauses or resumes polling of one connection, or of all when none is named. */
  setPaused: {
    role: 'admin',
    args: z.object({ paused: z.boolean(), connectionId: Id.optional() }).strict(),
    result: StatusSchema
  },

  listConnections: { role: 'viewer', args: NoArgs, result: z.array(ConnectionViewSchema) },
  /** Creates (no id) or updates a connection. The secret goes to the OS keychain only. */
  saveConnection: {
    role: 'admin',
    args: z
      .object({
        id: Id.optional(),
        settings: ConnectionInputSchema,
        secret: z.string().min(1).max(4096).optional()
      })
      .strict(),
    result: ConnectionViewSchema
  },
  deleteConnection: { role: 'admin', args: z.object({ id: Id }).strict(), result: z.object({ deleted: z.boolean() }) },
  setConnectionEnabled: {
    role: 'admin',
    args: z.object({ id: Id, enabled: z.boolean() }).strict(),
    result: ConnectionViewSchema
  },
  testConnection: { role: 'admin', args: z.object({ id: Id }).strict(), result: ConnectionTestReportSchema },
  /** Tests a connection as typed, before it is saved: the secret is used for this test only, never
   *  stored nor logged. Editing (id given), an empty secret means the stored one. */
  testConnectionDraft: {
    role: 'admin',
    args: z.object({ id: Id.optional(), settings: ConnectionInputSchema, secret: z.string().min(1).max(4096).optional() }).strict(),
    result: ConnectionTestReportSchema
  },

  /** Webhooks: alerts posted to a team channel or an on-call tool (a signing secret goes to the keychain).
   *  Their addresses are secrets of their own (a Slack or Teams URL lets anyone post): the administrator's. */
  listWebhooks: { role: 'admin', args: NoArgs, result: z.array(WebhookViewSchema) },
  addWebhook: {
    role: 'admin',
    args: z.object({ settings: WebhookInputSchema, secret: z.string().max(4096).optional() }).strict(),
    result: WebhookViewSchema
  },
  deleteWebhook: { role: 'admin', args: z.object({ id: Id }).strict(), result: z.object({ deleted: z.boolean() }) },
  testWebhook: { role: 'admin', args: z.object({ id: Id }).strict(), result: WebhookTestResultSchema },

  /** Maintenance windows: planned silences (alerts recorded, not announced). */
  listMaintenance: { role: 'viewer', args: NoArgs, result: z.array(MaintenanceWindowSchema) },
  /** A broad window (every connection, or longer than a week) needs confirmBroad: true. */
  addMaintenance: { role: 'operator', args: z.object({ window: MaintenanceInputSchema, confirmBroad: z.boolean().optional() }).strict(), result: MaintenanceWindowSchema },
  deleteMaintenance: { role: 'operator', args: z.object({ id: z.number().int().min(1) }).strict(), result: z.object({ deleted: z.boolean() }) },

  /** Poll cadences, retention, reliability thresholds, display, and the units in use. */
  getSettings: { role: 'viewer', args: NoArgs, result: AppSettingsSchema },
  /** Changes some settings; nothing invalid is saved. New cadences restart polling. */
  saveSettings: {
    // The least for alert settings; cadences, retention, display and desktop need the
    // administrator (shared/permissions.ts decides by what is saved).
    role: 'operator',
    args: z
      .object({
        cadences: CadenceSettingsSchema.partial().strict().optional(),
        retention: RetentionSettingsSchema.partial().strict().optional(),
        thresholds: StrictThresholds.optional(),
        display: DisplaySettingsSchema.partial().strict().optional(),
        alertRules: StrictAlertRules.optional(),
        desktop: DesktopSettingsSchema.partial().strict().optional()
      })
      .strict(),
    result: AppSettingsSchema
  },

  /** Alerts: firing first, then recent history (optionally one session's, for chart marks). */
  listAlerts: { role: 'viewer', args: ListAlertsArgsSchema, result: AlertsPageSchema },
  /** Acknowledges a firing alert, with an optional note; it stays until it resolves. */
  acknowledgeAlert: {
    role: 'operator',
    args: z.object({ id: z.number().int().min(1), note: z.string().max(500).optional() }).strict(),
    result: AlertsPageSchema
  },
  /** Silences an alert for 15 min, 1 h, 4 h or until its session ends. */
  snoozeAlert: {
    role: 'operator',
    args: z.object({ id: z.number().int().min(1), until: z.enum(SNOOZE_CHOICES) }).strict(),
    result: AlertsPageSchema
  },
  /** A per-session override: mute its alerts, or its own reliability levels (null: back to the defaults). */
  setSessionAlertOverride: {
    role: 'operator',
    args: z
      .object({
        connectionId: Id,
        eventSessionId: Id,
        muted: z.boolean().optional(),
        thresholds: StrictThresholds.nullable().optional()
      })
      .strict(),
    result: z.object({ muted: z.boolean(), thresholds: z.object({ warning: z.number(), critical: z.number() }).nullable() })
  },
  /** Pauses notifications for a planned maintenance window (alerts are still evaluated and kept). */
  pauseNotifications: {
    role: 'operator',
    args: z.object({ minutes: z.number().int().min(0).max(24 * 60) }).strict(),
    result: AlertsPageSchema
  },

  /** Every change made through the app API, newest first, with its author (the team's audit list). */
  listAudit: {
    role: 'viewer',
    args: z.object({ limit: z.number().int().min(1).max(1000).optional(), before: z.number().int().min(1).optional() }).strict(),
    result: z.array(AuditEntrySchema)
  },

  /** The team server's users (`eventwatch users`): the token is in the answer once, kept only as a hash. */
  addUser: {
    role: 'admin',
    args: z.object({ name: UserName, role: z.enum(USER_ROLES) }).strict(),
    result: z.object({ user: UserViewSchema, token: z.string() })
  },
  /** A new token; the old one and every browser signed in with it stop working at once. */
  rotateUserToken: { role: 'admin', args: z.object({ name: z.string().min(1).max(64) }).strict(), result: z.object({ token: z.string() }) },
  removeUser: { role: 'admin', args: z.object({ name: z.string().min(1).max(64) }).strict(), result: z.object({ removed: z.boolean() }) },

  /** This desk's team server, if it joined one (Settings → Team server; takes effect at the next start). */
  getTeamServer: { role: 'viewer', args: NoArgs, result: TeamServerViewSchema.nullable() },
  /** Makes this desk a client of a team server: asks the server who the token is, then keeps the
   *  token in the OS keychain. The token never comes back. */
  joinTeamServer: {
    role: 'admin',
    args: z
      .object({
        url: z.string().min(1).max(2000),
        token: z.string().min(1).max(4096),
        pinnedSha256: z.string().max(200).nullable().optional()
      })
      .strict(),
    result: IdentitySchema
  },
  leaveTeamServer: { role: 'admin', args: NoArgs, result: z.object({ left: z.boolean() }) },

  /** A session's snapshots for its charts (bucketed to at most maxPoints). */
  sessionChart: { role: 'viewer', args: SessionChartArgsSchema, result: ChartSeriesSchema },
  /** A session's audience and quality over time, reconstructed from its cached viewer list;
   *  null when none is cached. */
  sessionStory: { role: 'viewer', args: SessionStoryArgsSchema, result: SessionStorySchema },
  /** A session's post-event report as a file's text (HTML or JSON, as `eventwatch report`). */
  sessionReport: { role: 'viewer', args: SessionReportArgsSchema, result: SessionReportFileSchema },
  /** The last hour of several live sessions at once, for Live's and the wall's trends. */
  liveTrends: { role: 'viewer', args: LiveTrendsArgsSchema, result: LiveTrendsSchema },
  /** A window of a session's cached viewers, sorted and filtered. */
  viewerPage: { role: 'viewer', args: ViewerPageArgsSchema, result: ViewerPageSchema },
  /** One cached viewer, every field, network connections included; null when not cached. */
  viewerDetail: { role: 'viewer', args: ViewerDetailArgsSchema, result: ViewerDetailSchema },
  /** A session's viewers grouped by one dimension, worst first. */
  breakdown: { role: 'viewer', args: BreakdownArgsSchema, result: z.array(BreakdownRowSchema) },
  /** The names given to site codes. */
  listSiteNames: { role: 'viewer', args: z.object({}).strict(), result: z.array(SiteNameSchema) },
  /** Names a site code (or forgets its name, with null); answers every name. */
  setSiteName: { role: 'operator', args: SetSiteNameArgsSchema, result: z.array(SiteNameSchema) },
  /** Past (and optionally live) sessions from the cache: works offline. */
  pastSessions: { role: 'viewer', args: PastSessionsArgsSchema, result: PastSessionsPageSchema },
  /** One chunk of a session's export (the session, its snapshots or its viewers). */
  exportChunk: { role: 'viewer', args: ExportChunkArgsSchema, result: ExportChunkSchema },

  /** Recent trouble with the service: skipped records, failed and retried requests; one
   *  connection's only when it is named (null: the app's own, of no connection). */
  listDiagnostics: {
    role: 'viewer',
    args: z.object({ limit: z.number().int().min(1).max(5000).optional(), connectionId: Id.nullable().optional() }).strict(),
    result: z.array(DiagnosticSchema)
  },
  /** Fetches one date range of sessions from the service into the cache, through the
   *  connection's poller (one writer), recorded as a sync run and pushed. */
  fetchRange: {
    role: 'operator',
    args: z.object({ connectionId: Id, from: Instant, to: Instant }).strict(),
    result: z.object({ listed: z.number() })
  }
} as const satisfies Record<string, RequestEntry>

export const events = {
  alertsChanged: AlertsChangedSchema,
  sessionsChanged: SessionsChangedSchema,
  statusChanged: StatusSchema,
  connectivityChanged: ConnectivityChangedSchema,
  /** The settings after any window saved them: every window and the wall follow. */
  settingsChanged: AppSettingsSchema
} as const

export type RequestName = keyof typeof requests
export type EventName = keyof typeof events
export type RequestArgs<N extends RequestName> = z.input<(typeof requests)[N]['args']>
export type RequestResult<N extends RequestName> = z.output<(typeof requests)[N]['result']>
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

/** What a handler knows of the request besides its arguments: who makes it. */
export interface RequestContext {
  actor: Actor
  /** True when the request comes through a team server (a user signed in over the network). */
  team: boolean
  /**
   * Given by the dispatcher for a change: writes its audit row at once. A handler whose change is
   * one transaction calls it inside, so the change and its record commit together; for any other
   * change the dispatcher writes the row once the handler has succeeded.
   */
  auditNow?: () => void
  /**
   * The same row, written by the handler's unit of work on the audit store it passes (its
   * `tx.team.audit`): the change and its record commit together, or neither does.
   */
  auditIn?: (audit: AuditWriter) => Promise<void>
}

/** Where a unit of work writes an audit row (the Store's `tx.team.audit`). */
export interface AuditWriter {
  record(entry: Omit<AuditEntry, 'id' | 'at'>, now: number): Promise<void>
}

/** One handler per request: what the core implements, whatever face calls it. */
export type RequestHandlers = {
  [N in RequestName]: (
    args: z.output<(typeof requests)[N]['args']>,
    context: RequestContext
  ) => Promise<RequestResult<N>> | RequestResult<N>
}

export const requestNames = Object.keys(requests) as RequestName[]
export const eventNames = Object.keys(events) as EventName[]

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requests, name)
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}

/** IPC channel names, prefixed so they cannot collide with Electron's own. */
export const requestChannel = (name: RequestName): string => `eventwatch:request:${name}`
export const eventChannel = (name: EventName): string => `eventwatch:event:${name}`
