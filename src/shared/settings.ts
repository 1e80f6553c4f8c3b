// App-wide settings the operator can change: how often to poll, and how long to keep what was
// polled. One schema for the settings form and the core, so nothing invalid is ever saved.
import { z } from 'zod'
import { AlertRulesSchema } from './alerts'

/** Days to keep something, or null for "forever". */
export const RetentionDays = z.number().int().min(1).max(36_500).nullable()

export const RetentionSettingsSchema = z.object({
  snapshotsDays: RetentionDays,
  viewerListsDays: RetentionDays,
  sessionsDays: RetentionDays,
  /** Resolved alerts (and their transitions); open ones are never pruned. */
  alertsDays: RetentionDays,
  /** The audit log: who changed what through the app API. */
  auditDays: RetentionDays
})
export type RetentionSettings = z.infer<typeof RetentionSettingsSchema>

export const DEFAULT_RETENTION: RetentionSettings = Object.freeze({
  snapshotsDays: 90,
  viewerListsDays: 90,
  sessionsDays: null,
  alertsDays: 365,
  auditDays: 365
})

const seconds = (min: number, max: number) => z.number().int().min(min).max(max)

export const CadenceSettingsSchema = z.object({
  /** The session list, and with it a full pass. */
  discoverySeconds: seconds(5, 3600),
  /** Each live session's record -> a snapshot. */
  detailSeconds: seconds(5, 3600),
  /** Each live session's viewer list (the heaviest request). */
  viewersSeconds: seconds(15, 86_400)
})
export type CadenceSettings = z.infer<typeof CadenceSettingsSchema>

export const DEFAULT_CADENCES: CadenceSettings = Object.freeze({
  discoverySeconds: 30,
  detailSeconds: 15,
  viewersSeconds: 60
})


/**
 * Reliability levels for health and the "reliability below" alert, on the 0–100 scale whatever
 * scale the service reports in: good at or above `warning`, warning below it, critical below
 * `critical`. A session may have its own (an alert override).
 */
export const ReliabilityThresholdsSchema = z
  .object({
    warning: z.number().min(0).max(100),
    critical: z.number().min(0).max(100)
  })
  .refine((t) => t.critical < t.warning, { message: 'the critical level must be below the warning level', path: ['critical'] })
export type ReliabilityThresholds = z.infer<typeof ReliabilityThresholdsSchema>

export const DEFAULT_THRESHOLDS: ReliabilityThresholds = Object.freeze({ warning: 95, critical: 90 })

/**
 * How the screens show things. `auto` units are detected from the cached data (the API does not
 * say); the Settings screen says what was detected and why. The reliability scale belongs to
 * each connection (its service decides it), not here.
 */
export const DisplaySettingsSchema = z.object({
  timeZone: z.enum(['local', 'utc']),
  /** 'system' follows the operating system's light or dark preference (prefers-color-scheme). */
  theme: z.enum(['system', 'light', 'dark']),
  /** The unit of cdnTraffic / ecdnTraffic (sessions and viewers). */
  trafficUnit: z.enum(['auto', 'bytes', 'kilobytes', 'megabytes']),
  /** The unit of a viewer's viewingTime / rebufferingTime. */
  viewerTimeUnit: z.enum(['auto', 'seconds', 'milliseconds']),
  /** The sound of a critical alert firing (and of the reminder that one is still not acknowledged),
   *  on the desktop and in the browser host. Its name is older than the warning's sound. */
  alertSound: z.enum(['on', 'off']),
  /** The sound of a warning firing: a softer tone than a critical's. */
  warningSound: z.enum(['on', 'off'])
})
export type DisplaySettings = z.infer<typeof DisplaySettingsSchema>

export const DEFAULT_DISPLAY: DisplaySettings = Object.freeze({
  timeZone: 'local',
  theme: 'system',
  trafficUnit: 'auto',
  viewerTimeUnit: 'auto',
  // A critical calls an operator back from another screen; warnings come often, and a sound for
  // each teaches people to ignore the sound (docs/screens.md, "Sound").
  alertSound: 'on',
  warningSound: 'off'
})

/**
 * The display fields that are each person's own on a team server: every user reads the screens
 * in their time zone, theme and sound. The units are not among them: they say what the server's
 * cached data means, so they stay the server's, set by its administrator for everyone.
 */
export const PersonalDisplaySchema = DisplaySettingsSchema.pick({ timeZone: true, theme: true, alertSound: true, warningSound: true })
export type PersonalDisplay = z.infer<typeof PersonalDisplaySchema>

export const isPersonalDisplayField = (key: string): key is keyof PersonalDisplay => Object.hasOwn(PersonalDisplaySchema.shape, key)

/** The desktop app's own ways (stored with the rest; only the desktop face acts on them). */
export const DesktopSettingsSchema = z.object({
  /** Start when the operator logs in, in the tray, with no window. */
  startAtLogin: z.boolean()
})
export type DesktopSettings = z.infer<typeof DesktopSettingsSchema>

export const DEFAULT_DESKTOP: DesktopSettings = Object.freeze({ startAtLogin: false })

/** A unit as the screens use it: the setting, or what was detected (and why), or the default. */
export const ResolvedUnitSchema = <T extends z.ZodType>(value: T) =>
  z.object({ value, source: z.enum(['setting', 'detected', 'default']), reason: z.string() })

export const ResolvedUnitsSchema = z.object({
  trafficUnit: ResolvedUnitSchema(z.enum(['bytes', 'kilobytes', 'megabytes'])),
  viewerTimeUnit: ResolvedUnitSchema(z.enum(['seconds', 'milliseconds']))
})
export type ResolvedUnits = z.infer<typeof ResolvedUnitsSchema>

export const AppSettingsSchema = z.object({
  retention: RetentionSettingsSchema,
  cadences: CadenceSettingsSchema,
  thresholds: ReliabilityThresholdsSchema,
  display: DisplaySettingsSchema,
  alertRules: AlertRulesSchema,
  desktop: DesktopSettingsSchema,
  /** What the screens use for each `auto` unit. */
  units: ResolvedUnitsSchema
})
export type AppSettings = z.infer<typeof AppSettingsSchema>
