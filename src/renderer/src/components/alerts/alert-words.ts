// How an alert reads on screen: its rule, severity and state in words and icons (never colour
// alone), the value that moved it, and the order of the alerts view. Pure, so it is unit-tested.
import type { Alert, AlertRuleId, AlertSeverity, AlertState, AlertTransition, SessionAlert, SnoozeChoice } from '../../../../shared/alerts'
import { sessionName } from '../../../../shared/session-name'

export const RULE_NAME: Record<AlertRuleId, string> = {
  'reliability-below': 'Reliability below level',
  'reliability-falling': 'Reliability falling',
  'viewers-dropping': 'Viewers dropping',
  'monitor-blind': 'Cannot reach the service',
  'site-reliability': 'A site below level'
}

export const SEVERITY_ICON: Record<AlertSeverity, string> = { warning: '▲', critical: '✖' }
export const SEVERITY_WORD: Record<AlertSeverity, string> = { warning: 'Warning', critical: 'Critical' }

export const STATE_WORD: Record<AlertState, string> = {
  pending: 'Pending',
  firing: 'Firing',
  acknowledged: 'Acknowledged',
  snoozed: 'Snoozed',
  muted: 'Muted',
  resolved: 'Resolved'
}
export const STATE_ICON: Record<AlertState, string> = {
  pending: '◷',
  firing: '●',
  acknowledged: '✔',
  snoozed: '‖',
  muted: '⊘',
  resolved: '✓'
}

/** A session's most pressing alert as its row and tile say it (the core picked it). */
export const SESSION_ALERT_WORD: Record<SessionAlert['state'], string> = {
  firing: 'Alert firing',
  acknowledged: 'Alert acknowledged',
  pending: 'Alert pending',
  snoozed: 'Alert snoozed',
  muted: 'Alerts muted',
  cooldown: 'In cooldown'
}

export const SNOOZE_WORD: Record<SnoozeChoice, string> = {
  '15m': '15 min',
  '30m': '30 min',
  '1h': '1 h',
  '4h': '4 h',
  'session-end': 'Until the session ends'
}

/** Firing first, then held (acknowledged, snoozed, muted), then pending: what needs eyes soonest. */
const STATE_ORDER: Record<AlertState, number> = { firing: 0, acknowledged: 1, snoozed: 2, muted: 3, pending: 4, resolved: 5 }
const SEVERITY_ORDER: Record<AlertSeverity, number> = { critical: 0, warning: 1 }

const time = (at: string | null): number => (at ? Date.parse(at) || 0 : 0)

/** The view's two lists: alerts still open (worst first), and resolved history (newest first). */
export function splitAlerts(alerts: readonly Alert[]): { open: Alert[]; history: Alert[] } {
  const open = alerts
    .filter((a) => a.state !== 'resolved')
    .sort(
      (a, b) =>
        STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
        time(b.firedAt) - time(a.firedAt)
    )
  const history = alerts
    .filter((a) => a.state === 'resolved')
    .sort((a, b) => time(b.resolvedAt ?? b.firedAt) - time(a.resolvedAt ?? a.firedAt))
  return { open, history }
}

/** The transition that made it fire (the latest one), whose value is "what triggered it". */
export function firingTransition(alert: Alert): AlertTransition | null {
  for (let i = alert.transitions.length - 1; i >= 0; i--) {
    const t = alert.transitions[i]
    if (t && t.state === 'firing') return t
  }
  return null
}

/** A rule's value in words: a score, a drop in points or percent, minutes without a poll. */
export function formatRuleValue(rule: AlertRuleId, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—'
  switch (rule) {
    case 'reliability-below':
      return `reliability ${value.toFixed(1)}`
    case 'reliability-falling':
      return `fell ${Math.abs(value).toFixed(1)} points`
    case 'viewers-dropping':
      return `viewers fell ${Math.abs(value).toFixed(0)}%`
    case 'monitor-blind':
      return `${value.toFixed(1)} min without a poll`
    case 'site-reliability':
      return `site reliability ${value.toFixed(1)}`
  }
}

/** The value that triggered it (for a pending alert, the latest one seen), or null when none was recorded. */
export function triggerValue(alert: Alert): string | null {
  let value = firingTransition(alert)?.value ?? null
  if (value === null && alert.state === 'pending') value = alert.transitions.findLast((t) => t.value !== null)?.value ?? null
  return value === null ? null : formatRuleValue(alert.rule, value)
}

/** Since when it has been a problem: when it fired, or (pending) when the condition was first seen. */
export function alertSince(alert: Alert): string | null {
  return alert.firedAt ?? alert.transitions[0]?.at ?? null
}

/** What it is about: its session (named as everywhere: shared/session-name.ts), else every session (a blind monitor). */
export function alertSubject(alert: Pick<Alert, 'eventName' | 'eventSessionId'>): string {
  return alert.eventSessionId === null ? 'Every session' : sessionName({ eventName: alert.eventName, eventSessionId: alert.eventSessionId })
}

/** Where it happened: the event (or the whole connection, for a blind monitor). */
export function alertPlace(alert: Pick<Alert, 'eventName' | 'eventSessionId' | 'connectionName'>): string {
  return `${alertSubject(alert)} · ${alert.connectionName}`
}

/** A duration as an operator reads it: "45 s", "12 min", "2 h 05 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

/** The latest operator note (an acknowledgement's), if any. */
export function latestNote(alert: Alert): string | null {
  for (let i = alert.transitions.length - 1; i >= 0; i--) {
    const t = alert.transitions[i]
    if (t?.state === 'acknowledged' && t.note) return t.note
  }
  return null
}

/** Who acknowledged it and when (the latest acknowledgement), while it is acknowledged. */
export function acknowledgement(alert: Alert): { by: string | null; at: string } | null {
  if (alert.state !== 'acknowledged') return null
  const t = alert.transitions.findLast((x) => x.state === 'acknowledged')
  return t ? { by: t.by ?? null, at: t.at } : null
}

/** What the operator can still do with it: acknowledge and snooze only while it fires. */
export function actionsFor(alert: Alert): { acknowledge: boolean; snooze: boolean; mute: boolean; open: boolean } {
  const open = alert.eventSessionId !== null
  return {
    acknowledge: alert.state === 'firing',
    snooze: alert.state === 'firing' || alert.state === 'acknowledged' || alert.state === 'snoozed',
    mute: open && alert.state !== 'resolved',
    open
  }
}

