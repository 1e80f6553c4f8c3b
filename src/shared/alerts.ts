// Alerts an operator can trust: the rules (with their defaults), an alert's life, and what the
// screens, the tray and the CLI see of it. One file for the core, every face and the settings form.
import { z } from 'zod'
import { AlertEndKindSchema } from './alert-end'
import type { AppTarget } from './deep-link'
import { EpochSchema } from './revisions'
import { Id, Instant } from './schema-parts'

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
  /** 5. One site's viewers below the site levels while the session itself is at or above its
   *  warning level (an office's ECDN peer down): judged on each viewer list, per site of the
   *  viewers' current connection. Its own levels: viewers' scores scatter around the session's. */
  siteReliability: RuleTimingSchema.extend({
    enabled: z.boolean(),
    /** A site with fewer viewers is not judged (a handful of viewers is noise). */
    minimumViewers: z.number().int().min(1).max(10_000_000),
    /** 0–100: a site's mean reliability below these is a warning, a critical. */
    warningBelow: z.number().min(0).max(100),
    criticalBelow: z.number().min(0).max(100),
    recoveryMargin: z.number().min(0).max(50)
  }).refine((r) => r.criticalBelow < r.warningBelow, { message: 'the critical level must be below the warning level', path: ['criticalBelow'] }),
  /** An unacknowledged critical is announced again every `everyMinutes` while it fires (off by default). */
  repeatCritical: z.object({
    enabled: z.boolean(),
    everyMinutes: z.number().min(1).max(1440)
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
  monitorBlind: { enabled: true, minutes: 2 },
  repeatCritical: { enabled: false, everyMinutes: 15 },
  siteReliability: {
    enabled: true,
    minimumViewers: 20,
    warningBelow: 80,
    criticalBelow: 60,
    recoveryMargin: 2,
    pendingPolls: 2,
    recoveryPolls: 2,
    cooldownMinutes: 10
  }
}

export const ALERT_RULE_IDS = ['reliability-below', 'reliability-falling', 'viewers-dropping', 'monitor-blind', 'site-reliability'] as const
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
  note: z.string().nullable(),
  /** Who moved it (an acknowledgement, a snooze): a team server's user, or this machine's user. */
  by: z.string().nullable().optional()
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
  /** The site (code, and its name once named) a site alert is about; null for the others. */
  site: z.string().nullable(),
  siteName: z.string().nullable(),
  state: z.enum(ALERT_STATES),
  severity: z.enum(ALERT_SEVERITIES),
  /** One line in words: "Reliability 86.2, below the critical level 90". */
  summary: z.string(),
  firedAt: Instant.nullable(),
  resolvedAt: Instant.nullable(),
  /** Until when it is snoozed; "session-end" snoozes carry the session's end instead, once known. */
  snoozedUntil: Instant.nullable(),
  /** Once resolved, why, in words: "recovered: reliability 97.2, above the warning level 95",
   *  "no longer falling: …; reliability is still 41, below the critical level 90", "session ended". */
  endReason: z.string().nullable(),
  /** Once resolved, what kind of end the core decided (shared/alert-end.ts): only 'recovered' reads "Resolved". */
  endKind: AlertEndKindSchema.nullable(),
  transitions: z.array(AlertTransitionSchema)
})
export type Alert = z.infer<typeof AlertSchema>

/** A session's most pressing open alert, as the core decided it for its row, tile and tray entry.
 *  'cooldown': the condition holds again, but the same alert resolved too recently to fire. */
export const SESSION_ALERT_STATES = ['firing', 'acknowledged', 'pending', 'snoozed', 'muted', 'cooldown'] as const
export const SessionAlertSchema = z.object({
  /** Null for a condition held back by the cooldown: there is no alert to act on. */
  id: z.number().nullable(),
  rule: z.enum(ALERT_RULE_IDS),
  state: z.enum(SESSION_ALERT_STATES),
  severity: z.enum(ALERT_SEVERITIES),
  summary: z.string()
})
export type SessionAlert = z.infer<typeof SessionAlertSchema>

/** A session's worst site alert still firing (acknowledged or not), as the core decided it for its
 *  row and tile: a failing office shows on a session whose own score stays good. */
export const SiteAlertSchema = z.object({
  /** The site's code. */
  site: z.string(),
  /** How it is named: the operator's name for it, else "Site 415" (shared/site-label.ts). */
  label: z.string(),
  /** The site's mean reliability (0–100) on the session's newest viewer list, else the alert's
   *  last value; null when neither is known. */
  reliability: z.number().nullable(),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(['firing', 'acknowledged'])
})
export type SiteAlert = z.infer<typeof SiteAlertSchema>

/** The tray icon's five states, each its own shape. */
export const TRAY_STATES = ['ok', 'warning', 'critical', 'blind', 'paused'] as const
export type TrayState = (typeof TRAY_STATES)[number]

/** The headline's tone: the worst thing going on. 'held': nothing fires, but something is held
 *  back or not confirmed (snoozed, muted, cooling down, a connection not polled successfully yet
 *  or offline); 'pending': a condition holds but has not fired yet. 'ok' only when all is clear. */
export const SITUATION_TONES = ['ok', 'held', 'pending', 'warning', 'critical', 'blind'] as const
export type SituationTone = (typeof SITUATION_TONES)[number]

/**
 * The alert situation, computed once by the core after every evaluation and every operator
 * action. The header, the alerts view, the wall, the window title and the tray all show this.
 */
export const AlertSituationSchema = z.object({
  /** Grows with every change, within its epoch: a face ignores a push no newer than what it
   *  already has (shared/revisions.ts). */
  revision: z.number().int().min(0),
  /** Which count the revision is of: the core's (new at each start), or a team client's own
   *  words (the server is offline). A new epoch is taken whole. */
  epoch: EpochSchema,
  at: Instant,
  /** Alerts still firing, acknowledged ones included: an acknowledged alert still fires. */
  firing: z.number().int().min(0),
  /** Of those firing, how many an operator acknowledged. */
  acknowledged: z.number().int().min(0),
  /** The worst severity still firing (acknowledged or not); null when nothing fires. */
  worst: z.enum(ALERT_SEVERITIES).nullable(),
  pending: z.number().int().min(0),
  /** The worst severity among pending alerts; null when none is pending. */
  worstPending: z.enum(ALERT_SEVERITIES).nullable(),
  snoozed: z.number().int().min(0),
  muted: z.number().int().min(0),
  /** Conditions that hold again while the same alert's cooldown runs. */
  cooldown: z.number().int().min(0),
  /** Connections that cannot be polled (an open "cannot reach the service" alert). */
  blind: z.array(z.object({ connectionId: z.string(), connectionName: z.string() })),
  pollingPaused: z.boolean(),
  /** Notifications paused until this instant (maintenance window), or null. */
  notificationsPausedUntil: Instant.nullable(),
  /** The maintenance windows in force now, by name: those covering everything first, at most five
   *  (the headline says how many more, and names a window over everything first). */
  maintenance: z.array(z.string()),
  tone: z.enum(SITUATION_TONES),
  tray: z.enum(TRAY_STATES),
  /** The situation in one line, the same words on every face: "2 firing (1 acknowledged) · 1 pending critical". */
  headline: z.string(),
  /** How many connections are polled: with more than one, a session named away from its
   *  connection (the wall's alerts, alert cards, notifications, webhooks, the tray) names its
   *  connection too (shared/session-name.ts). Absent (a core that does not say): one. */
  connectionsPolled: z.number().int().min(0).optional()
})
export type AlertSituation = z.infer<typeof AlertSituationSchema>

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
  /** The situation as of this page: a page opened mid-incident shows it at once. */
  situation: AlertSituationSchema
})
export type AlertsPage = z.infer<typeof AlertsPageSchema>

export const SNOOZE_CHOICES = ['15m', '30m', '1h', '4h', 'session-end'] as const
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number]

/** Pushed when alerts change: the tray, notifications and the alerts view follow it, without asking again. */
export const AlertsChangedSchema = z.object({
  situation: AlertSituationSchema,
  /** Every alert that changed (opened, moved, acknowledged, snoozed, resolved), as it is now. */
  changed: z.array(AlertSchema),
  /** Pending alerts whose condition cleared before they fired: they never were alerts. */
  removed: z.array(z.number()),
  /** Of the changed ones, those that began firing in this evaluation, and those that resolved:
   *  what notifications announce, grouped. */
  fired: z.array(AlertSchema),
  resolved: z.array(AlertSchema),
  /** Criticals still firing, unacknowledged, announced again (Settings → Alerts → Repeat). */
  repeated: z.array(AlertSchema),
  /** Alerts whose announcement a maintenance window held back (taken out of fired, resolved and
   *  repeated): still recorded and shown, never notified nor sent to a webhook. */
  silenced: z.array(z.object({ id: z.number(), window: z.string() }))
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
