// Alerts an operator can trust: the rules (with their defaults), an alert's life, and what the
// screens, the tray and the CLI see of it. One file for the core, every face and the settings form.
import { z } from 'zod'
import type { AppTarget } from './deep-link'

const Id = z.string().min(1).max(200)
const Instant = z.string().max(40)

/** Shared by every rule: how it fires, clears and rests (counted in polls of live details). */
export const RuleTimingSchema = z.object({
  /** Polls in a row the condition must hold before the alert fires. */
  pendingPolls: z.number().int().min(1).max(60),
  /** Polls in a row the recovery condition must hold before it resolves. */
  recoveryPolls: z.number().int().min(1).max(60),
  /** Minutes after resolving before the same alert may fire again. */
  cooldownMinutes: z.number().min(0).max(1440)
})
export type RuleTiming = z.infer<typeof RuleTimingSchema>

export const AlertRulesSchema = z.object({
  /** 1. Reliability below the warning / critical levels of Settings → Reliability levels. */
  reliabilityBelow: RuleTimingSchema.extend({
    enabled: z.boolean(),
    /** Points (0–100) above the level the score must regain to clear: hysteresis. */
    recoveryMargin: z.number().min(0).max(50)
  }),
  /** 2. A drop of at least `points` within `windowMinutes`, even above the levels. */
  reliabilityFalling: RuleTimingSchema.extend({
    enabled: z.boolean(),
    points: z.number().min(0.1).max(100),
    windowMinutes: z.number().min(1).max(120)
  }),
  /** 3. Concurrent viewers fall by at least `percent` within `windowMinutes` (mass disconnect). */
  viewersDropping: RuleTimingSchema.extend({
    enabled: z.boolean(),
    percent: z.number().min(1).max(100),
    windowMinutes: z.number().min(1).max(120),
    /** Below this audience the rule does not fire. */
    minimumViewers: z.number().int().min(0).max(10_000_000)
  }),
  /** 4. No successful poll of a connection for longer than `minutes`; holds back per-session alerts. */
  monitorBlind: z.object({
    enabled: z.boolean(),
    minutes: z.number().min(0.5).max(1440)
  })
})
export type AlertRules = z.infer<typeof AlertRulesSchema>

export const DEFAULT_ALERT_RULES: AlertRules = {
  reliabilityBelow: { enabled: true, recoveryMargin: 1, pendingPolls: 2, recoveryPolls: 2, cooldownMinutes: 10 },
  reliabilityFalling: { enabled: true, points: 5, windowMinutes: 5, pendingPolls: 1, recoveryPolls: 2, cooldownMinutes: 10 },
  viewersDropping: { enabled: true, percent: 30, windowMinutes: 2, minimumViewers: 50, pendingPolls: 1, recoveryPolls: 2, cooldownMinutes: 10 },
  monitorBlind: { enabled: true, minutes: 2 }
}

export const ALERT_RULE_IDS = ['reliability-below', 'reliability-falling', 'viewers-dropping', 'monitor-blind'] as const
export type AlertRuleId = (typeof ALERT_RULE_IDS)[number]

export const ALERT_SEVERITIES = ['warning', 'critical'] as const
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number]

/** pending → firing → (acknowledged) → resolved; snoozed and muted hold notifications back. */
export const ALERT_STATES = ['pending', 'firing', 'acknowledged', 'snoozed', 'muted', 'resolved'] as const
export type AlertState = (typeof ALERT_STATES)[number]

export const AlertTransitionSchema = z.object({
  at: Instant,
  state: z.enum(ALERT_STATES),
  severity: z.enum(ALERT_SEVERITIES),
  /** The value that moved it (a score, a drop in points or percent, minutes without a poll). */
  value: z.number().nullable(),
  /** An operator's note (acknowledge) or the reason in words. */
  note: z.string().nullable()
})
export type AlertTransition = z.infer<typeof AlertTransitionSchema>

export const AlertSchema = z.object({
  id: z.number(),
  rule: z.enum(ALERT_RULE_IDS),
  connectionId: z.string(),
  connectionName: z.string(),
  /** Null for a connection-wide alert (monitor blind). */
  eventSessionId: z.string().nullable(),
  eventName: z.string().nullable(),
  state: z.enum(ALERT_STATES),
  severity: z.enum(ALERT_SEVERITIES),
  /** One line in words: "Reliability 86.2, below the critical level 90". */
  summary: z.string(),
  firedAt: Instant.nullable(),
  resolvedAt: Instant.nullable(),
  /** Until when it is snoozed; "session-end" snoozes carry the session's end instead, once known. */
  snoozedUntil: Instant.nullable(),
  transitions: z.array(AlertTransitionSchema)
})
export type Alert = z.infer<typeof AlertSchema>

export const ListAlertsArgsSchema = z
  .object({
    /** Only this session's alerts (the drill-down's chart marks). */
    connectionId: Id.optional(),
    eventSessionId: Id.optional(),
    /** Resolved alerts from at most this long ago (default 24 h). */
    historyHours: z.number().min(0).max(24 * 365).optional(),
    limit: z.number().int().min(1).max(1000).optional()
  })
  .strict()

export const AlertsPageSchema = z.object({
  /** Firing (and acknowledged, snoozed, muted) first, then recent history, newest first. */
  alerts: z.array(AlertSchema),
  /** Alerts currently firing and not acknowledged, snoozed or muted: the tray's count. */
  firing: z.number(),
  /** Notifications paused until this instant (maintenance window), or null. */
  notificationsPausedUntil: Instant.nullable()
})
export type AlertsPage = z.infer<typeof AlertsPageSchema>

export const SNOOZE_CHOICES = ['15m', '1h', '4h', 'session-end'] as const
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number]

/** Pushed when alerts change: the tray, notifications and the alerts view follow it. */
export const AlertsChangedSchema = z.object({
  at: Instant,
  firing: z.number(),
  /** The worst state across connections, for the tray's icon. */
  tray: z.enum(['ok', 'warning', 'critical', 'blind', 'paused']),
  /** What changed in this evaluation: new firing alerts, and resolved ones. */
  fired: z.array(AlertSchema),
  resolved: z.array(AlertSchema),
  notificationsPausedUntil: Instant.nullable()
})
export type AlertsChanged = z.infer<typeof AlertsChangedSchema>

/** Whether a maintenance pause (notificationsPausedUntil) is in force at `now`. */
export function notificationsPaused(pausedUntil: string | null, now: number): boolean {
  if (!pausedUntil) return false
  const until = Date.parse(pausedUntil)
  return !Number.isNaN(until) && until > now
}

/** Where a notification of these alerts leads: their session when all are about the same one,
 *  otherwise (several, or a connection-wide one) the alerts view. */
export function alertsTarget(alerts: readonly Alert[]): AppTarget {
  const first = alerts[0]
  if (
    first?.eventSessionId &&
    alerts.every((a) => a.connectionId === first.connectionId && a.eventSessionId === first.eventSessionId)
  ) {
    return { view: 'session', connectionId: first.connectionId, eventSessionId: first.eventSessionId }
  }
  return { view: 'alerts' }
}
