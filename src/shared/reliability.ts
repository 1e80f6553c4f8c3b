// Reliability as every face receives it: already on Eventwatch's 0–100 scale and already judged
// against the levels that apply. These are the shapes only; the core decides the values
// (src/main/core/health/), and no face recomputes them.
import { z } from 'zod'

/** The scale a connection's service reports reliabilityScore on, as the operator set it. */
export const RELIABILITY_SCALE_SETTINGS = ['auto', '0-1', '0-100'] as const
export const ReliabilityScaleSettingSchema = z.enum(RELIABILITY_SCALE_SETTINGS)
export type ReliabilityScaleSetting = z.infer<typeof ReliabilityScaleSettingSchema>

export const ReliabilityScaleSchema = z.enum(['0-1', '0-100'])
export type ReliabilityScale = z.infer<typeof ReliabilityScaleSchema>

/** good at or above the warning level, warning below it, critical below the critical level;
 *  unknown when there is no score to judge. */
export const HEALTHS = ['good', 'warning', 'critical', 'unknown'] as const
export const HealthSchema = z.enum(HEALTHS)
export type Health = z.infer<typeof HealthSchema>

/** The levels a session is judged by: its own override, or the app's settings. */
export const EffectiveLevelsSchema = z.object({
  warning: z.number(),
  critical: z.number(),
  source: z.enum(['session', 'settings'])
})
export type EffectiveLevels = z.infer<typeof EffectiveLevelsSchema>

/** A connection's scale in use and why: set by the operator, detected from its data, or assumed. */
export const ConnectionScaleSchema = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  setting: ReliabilityScaleSettingSchema,
  value: ReliabilityScaleSchema,
  source: z.enum(['setting', 'detected', 'default']),
  reason: z.string()
})
export type ConnectionScale = z.infer<typeof ConnectionScaleSchema>
