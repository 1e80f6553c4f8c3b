// The alert rules as a pure function: what was observed (snapshots, the last successful poll),
// the alerts still open and the clock in, the changes to make out. No I/O, so every rule,
// pending period, hysteresis, cooldown and snooze is tested with a clock moved by hand.
import type { AlertRuleId, AlertRules, AlertSeverity, AlertState } from '../../../shared/alerts'
import type { EffectiveLevels } from '../../../shared/reliability'
import { alertKey, type OpenAlert, type OpenState } from '../store/alerts'
import { blindCondition, sessionConditions, type Condition } from './conditions'
import { alertEnd, type AlertEnd } from './end-reason'
import { siteCondition } from './site-conditions'

/** One stored snapshot, the score already on 0–100. */
export interface Sample {
  at: number
  score: number
  viewers: number
}

export interface SessionObservation {
  eventSessionId: string
  eventName: string | null
  /** False once the session has ended (or is no longer cached). */
  live: boolean
  /** Its snapshots within the longest rule window, oldest first; the last is the newest. */
  samples: Sample[]
  /** Whether the newest snapshot is new since the last evaluation: a poll counts once. */
  fresh: boolean
  /** Muted by an operator: its alerts are held, none opens. */
  muted: boolean
  /** The levels its scores are judged by: its own, else the settings' (store/session-levels.ts). */
  levels: EffectiveLevels
  /** Per site, from its newest viewer list: read only when that list is new (sitesFresh). */
  sites: SiteSample[]
  /** Whether the viewer list is new since the last evaluation: a list counts once. */
  sitesFresh: boolean
}

/** One site of a session's viewer list, reliability on 0–100. */
export interface SiteSample {
  site: string
  viewers: number
  reliability: number | null
}

export type { OpenAlert, OpenState }

export interface EngineInput {
  now: number
  rules: AlertRules
  /** The last successful poll of the connection (or when watching began, before any). */
  lastSuccessAt: number
  /** Live sessions, and every session an open alert belongs to. */
  sessions: SessionObservation[]
  open: OpenAlert[]
  /** When the same alert (rule, session and site) last resolved, for the cooldown. */
  lastResolvedAt(rule: AlertRuleId, eventSessionId: string | null, site?: string | null): number | undefined
}

export type AlertAction =
  | {
      type: 'open'
      rule: AlertRuleId
      eventSessionId: string | null
      eventName: string | null
      state: 'pending' | 'firing'
      severity: AlertSeverity
      value: number
      summary: string
      streak: number
      /** The site a site alert is about. */
      site?: string | null
    }
  | {
      type: 'move'
      id: number
      state: AlertState
      severity: AlertSeverity
      value: number | null
      note: string | null
      summary?: string
      /** With state 'resolved': what kind of end it is (its words are the note). */
      endKind?: AlertEnd['kind']
    }
  | { type: 'streak'; id: number; streak: number }
  /** A pending alert whose condition cleared before it fired: it never was an alert. */
  | { type: 'discard'; id: number }
  /** The condition holds again, but the same alert resolved within its cooldown: held back, not stored. */
  | { type: 'cooldown'; rule: AlertRuleId; eventSessionId: string; severity: AlertSeverity; summary: string; site?: string | null }

const isActive = (a: OpenAlert): boolean => a.state !== 'pending'
const worse = (a: AlertSeverity, b: AlertSeverity): boolean => a === 'critical' && b === 'warning'

export function evaluateAlerts(input: EngineInput): AlertAction[] {
  const actions: AlertAction[] = []
  // Copies: a snooze that ends is noted on them as the evaluation goes on.
  const openAlerts = input.open.map((a) => ({ ...a }))
  const openBy = new Map(openAlerts.map((a) => [key(a.rule, a.eventSessionId, a.site), a]))

  // 4. Monitor blind first: while blind, per-session alerts are held back.
  const blind = blindCondition(input)
  const blindAlert = openBy.get(key('monitor-blind', null))
  if (!input.rules.monitorBlind.enabled) {
    if (blindAlert) actions.push(resolve(blindAlert, null, alertEnd({ cause: 'rule-off' })))
  } else if (blind.holds && !blindAlert) {
    actions.push(open('monitor-blind', null, null, 'firing', blind, 0))
  } else if (!blind.holds && blindAlert) {
    actions.push(resolve(blindAlert, blind.value, blind.end))
  }
  if (blind.holds && input.rules.monitorBlind.enabled) {
    if (blindAlert) snoozeExpiry(blindAlert, input.now, actions)
    return actions
  }
  if (blindAlert) snoozeExpiry(blindAlert, input.now, actions)

  const sessions = new Map(input.sessions.map((s) => [s.eventSessionId, s]))
  // Alerts of sessions that ended (or left the cache) resolve: there is nothing left to watch.
  for (const alert of openAlerts) {
    if (alert.eventSessionId === null) continue
    const session = sessions.get(alert.eventSessionId)
    if (!session || !session.live) {
      actions.push(dismiss(alert, alertEnd({ cause: 'session-ended' })))
      openBy.delete(key(alert.rule, alert.eventSessionId, alert.site))
    }
  }

  for (const session of input.sessions) {
    if (!session.live) continue
    for (const { rule, timing, condition } of sessionConditions(input, session)) {
      const alert = openBy.get(key(rule, session.eventSessionId))
      if (!timing.enabled) {
        if (alert) actions.push(dismiss(alert, alertEnd({ cause: 'rule-off' })))
        continue
      }
      if (alert) snoozeExpiry(alert, input.now, actions)
      if (session.muted) {
        muted(alert, actions)
        if (!session.fresh || !alert || !isActive(alert)) continue
      } else if (alert?.state === 'muted') {
        // Unmuted, it is as it was before: acknowledged stays acknowledged, a snooze still running
        // runs on; only one that was firing (or whose snooze ran out meanwhile) fires again.
        const back = unmutedState(alert, input.now)
        actions.push({ type: 'move', id: alert.id, state: back, severity: alert.severity, value: null, note: 'unmuted' })
        alert.state = back
      }
      if (!session.fresh || !condition) continue
      const cooledDown = (): boolean => {
        const resolvedAt = input.lastResolvedAt(rule, session.eventSessionId)
        return resolvedAt === undefined || input.now - resolvedAt >= timing.cooldownMinutes * 60_000
      }
      step(alert, condition, timing, cooledDown, session, rule, actions)
    }
    judgeSites(input, session, openAlerts, actions)
  }
  return actions
}

/** 5. Each site of the session's newest viewer list, once per list (site-conditions.ts). */
function judgeSites(input: EngineInput, session: SessionObservation, openAlerts: OpenAlert[], actions: AlertAction[]): void {
  const rule = input.rules.siteReliability
  const open = new Map(
    openAlerts.filter((a) => a.rule === 'site-reliability' && a.eventSessionId === session.eventSessionId).map((a) => [a.site ?? '', a])
  )
  for (const alert of open.values()) {
    if (!rule.enabled) {
      actions.push(dismiss(alert, alertEnd({ cause: 'rule-off' })))
      continue
    }
    snoozeExpiry(alert, input.now, actions)
    if (session.muted) muted(alert, actions)
    else if (alert.state === 'muted') {
      // Unmuted: as it was before the mute, like the session's own alerts.
      const back = unmutedState(alert, input.now)
      actions.push({ type: 'move', id: alert.id, state: back, severity: alert.severity, value: null, note: 'unmuted' })
      alert.state = back
    }
  }
  if (!rule.enabled || session.muted || !session.sitesFresh) return
  const bySite = new Map(session.sites.map((s) => [s.site, s]))
  for (const site of new Set([...bySite.keys(), ...open.keys()])) {
    const alert = open.get(site)
    // A site no longer in the list has no viewers left to fail: it has recovered.
    const condition = siteCondition(input, session, bySite.get(site) ?? { site, viewers: 0, reliability: null })
    if (!condition) continue
    const cooledDown = (): boolean => {
      const resolvedAt = input.lastResolvedAt('site-reliability', session.eventSessionId, site)
      return resolvedAt === undefined || input.now - resolvedAt >= rule.cooldownMinutes * 60_000
    }
    step(alert, condition, rule, cooledDown, session, 'site-reliability', actions, site)
  }
}

interface Timing {
  pendingPolls: number
  recoveryPolls: number
}

/** One poll of one rule for one session: pending → firing, recovery → resolved, or nothing. */
function step(
  alert: OpenAlert | undefined,
  condition: Condition,
  timing: Timing,
  cooledDown: () => boolean,
  session: SessionObservation,
  rule: AlertRuleId,
  actions: AlertAction[],
  site: string | null = null
): void {
  if (!alert) {
    if (!condition.holds) return
    if (!cooledDown()) {
      actions.push({ type: 'cooldown', rule, eventSessionId: session.eventSessionId, severity: condition.severity, summary: condition.summary, site })
      return
    }
    const fires = timing.pendingPolls <= 1
    actions.push({ ...open(rule, session.eventSessionId, session.eventName, fires ? 'firing' : 'pending', condition, fires ? 0 : 1), site } as AlertAction)
    return
  }
  if (alert.state === 'pending') {
    if (!condition.holds) {
      actions.push({ type: 'discard', id: alert.id })
      return
    }
    const streak = alert.streak + 1
    if (streak >= timing.pendingPolls) {
      actions.push({ type: 'move', id: alert.id, state: 'firing', severity: condition.severity, value: condition.value, note: null, summary: condition.summary })
      actions.push({ type: 'streak', id: alert.id, streak: 0 })
    } else {
      actions.push({ type: 'streak', id: alert.id, streak })
    }
    return
  }
  // Firing, acknowledged, snoozed or muted: it clears only on its own recovery condition,
  // held for recoveryPolls polls in a row; anything short of that starts the count again.
  if (condition.recovered) {
    const streak = alert.streak + 1
    // Resolved, recovered or not: the end says which (a drop that left its window is no recovery).
    if (streak >= timing.recoveryPolls) actions.push(resolve(alert, condition.value, condition.end))
    else actions.push({ type: 'streak', id: alert.id, streak })
    return
  }
  if (alert.streak !== 0) actions.push({ type: 'streak', id: alert.id, streak: 0 })
  if (condition.holds && worse(condition.severity, alert.severity)) {
    // Worse than when it fired: an acknowledged alert fires again; snoozed and muted stay quiet.
    const state = alert.state === 'acknowledged' ? 'firing' : alert.state
    actions.push({ type: 'move', id: alert.id, state, severity: condition.severity, value: condition.value, note: 'worse', summary: condition.summary })
  }
}

function snoozeExpiry(alert: OpenAlert, now: number, actions: AlertAction[]): void {
  if (alert.state !== 'snoozed' || alert.snoozedUntil === null || now < alert.snoozedUntil) return
  actions.push({ type: 'move', id: alert.id, state: 'firing', severity: alert.severity, value: null, note: 'snooze ended' })
  alert.state = 'firing'
}

function unmutedState(alert: OpenAlert, now: number): 'firing' | 'acknowledged' | 'snoozed' {
  if (alert.stateBeforeMute === 'acknowledged') return 'acknowledged'
  const snoozeRuns = alert.snoozeSessionEnd || (alert.snoozedUntil !== null && alert.snoozedUntil > now)
  return alert.stateBeforeMute === 'snoozed' && snoozeRuns ? 'snoozed' : 'firing'
}

function muted(alert: OpenAlert | undefined, actions: AlertAction[]): void {
  if (!alert) return
  if (alert.state === 'pending') actions.push({ type: 'discard', id: alert.id })
  else if (alert.state !== 'muted') {
    actions.push({ type: 'move', id: alert.id, state: 'muted', severity: alert.severity, value: null, note: 'session muted' })
  }
}

function open(
  rule: AlertRuleId,
  eventSessionId: string | null,
  eventName: string | null,
  state: 'pending' | 'firing',
  condition: Condition,
  streak: number
): AlertAction {
  return { type: 'open', rule, eventSessionId, eventName, state, severity: condition.severity, value: condition.value, summary: condition.summary, streak }
}

function resolve(alert: Pick<OpenAlert, 'id' | 'severity'>, value: number | null, end: AlertEnd): AlertAction {
  return { type: 'move', id: alert.id, state: 'resolved', severity: alert.severity, value, note: end.words, endKind: end.kind }
}

/** An alert with nothing left to judge: a pending one never was an alert, any other resolves. */
export function dismiss(alert: Pick<OpenAlert, 'id' | 'severity' | 'state'>, end: AlertEnd): AlertAction {
  return alert.state === 'pending' ? { type: 'discard', id: alert.id } : resolve(alert, null, end)
}

export const key = alertKey
