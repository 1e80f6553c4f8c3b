// App-wide settings the operator can change: how often to poll, and how long to keep what was
// polled. One schema for the settings form and the core, so nothing invalid is ever saved.
import { z } from 'zod'

/** Days to keep something, or null for "forever". */
export const RetentionDays = z.number().int().min(1).max(36_500).nullable()

export const RetentionSettingsSchema = z.object({
  snapshotsDays: RetentionDays,
  viewerListsDays: RetentionDays,
  sessionsDays: RetentionDays
})
export type RetentionSettings = z.infer<typeof RetentionSettingsSchema>

export const DEFAULT_RETENTION: RetentionSettings = Object.freeze({
  snapshotsDays: 90,
  viewerListsDays: 90,
  sessionsDays: null
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

export const AppSettingsSchema = z.object({
  retention: RetentionSettingsSchema,
  cadences: CadenceSettingsSchema
})
export type AppSettings = z.infer<typeof AppSettingsSchema>
