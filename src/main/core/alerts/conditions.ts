// Each rule's condition on one poll: whether it holds (and how badly), whether its separate
// recovery condition holds, the value behind it and one line in words. Windows are read over
// the stored snapshots by time.
import type { AlertRuleId, AlertRules, AlertSeverity, RuleTiming } from '../../../shared/alerts'
import type { EngineInput, Sample, SessionObservation } from './engine'
import { alertEnd, type AlertEnd } from './end-reason'

export interface Condition {
  holds: boolean
  /** Clear of the condition by the rule's margin: only this counts towards resolving. */
  recovered: boolean
  severity: AlertSeverity
  value: number
  summary: string
  /** How the alert would end if it resolved on this poll: recovered, or why not (end-reason.ts). */
  end: AlertEnd
}

type SessionTiming = RuleTiming & { enabled: boolean }

export interface SessionRule {
  rule: AlertRuleId
  timing: SessionTiming
  /** Null when there is no snapshot to judge. */
  condition: Condition | null
}

const one = (n: number): string => (Math.round(n * 10) / 10).toString()

export function blindCondition(input: Pick<EngineInput, 'now' | 'lastSuccessAt' | 'rules'>): Condition {
  const minutes = (input.now - input.lastSuccessAt) / 60_000
  const holds = minutes > input.rules.monitorBlind.minutes
  return {
    holds,
    recovered: !holds,
    severity: 'critical',
    value: Math.round(minutes * 10) / 10,
    summary: `Cannot reach the service: no successful poll for ${one(minutes)} min`,
    end: alertEnd({ cause: 'cleared', rule: 'monitor-blind' })
  }
}

export function sessionConditions(input: Pick<EngineInput, 'rules' | 'now'>, session: SessionObservation): SessionRule[] {
  const { rules } = input
  const latest = session.samples.at(-1)
  return [
    { rule: 'reliability-below', timing: rules.reliabilityBelow, condition: latest ? reliabilityBelow(input, session, latest) : null },
    { rule: 'reliability-falling', timing: rules.reliabilityFalling, condition: latest ? reliabilityFalling(input, session, latest) : null },
    { rule: 'viewers-dropping', timing: rules.viewersDropping, condition: latest ? viewersDropping(rules, session, latest) : null }
  ]
}

/** 1. Under the warning (or critical) level; clears only at the warning level plus the margin. */
function reliabilityBelow(input: Pick<EngineInput, 'rules'>, session: SessionObservation, latest: Sample): Condition {
  const { levels } = session
  const score = latest.score
  const severity: AlertSeverity = score < levels.critical ? 'critical' : 'warning'
  const level = severity === 'critical' ? levels.critical : levels.warning
  return {
    holds: score < levels.warning,
    recovered: score >= levels.warning + input.rules.reliabilityBelow.recoveryMargin,
    severity,
    value: score,
    summary: `Reliability ${one(score)}, below the ${severity} level ${one(level)}`,
    end: alertEnd({ cause: 'cleared', rule: 'reliability-below', score, levels, rose: false, windowMinutes: 0 })
  }
}

/** The samples within `minutes` of the newest one. */
const windowOf = (samples: Sample[], latest: Sample, minutes: number): Sample[] =>
  samples.filter((s) => s.at >= latest.at - minutes * 60_000 && s.at <= latest.at)

/** 2. A drop of `points` from the window's best; clears when the drop is under half of that. */
function reliabilityFalling(input: Pick<EngineInput, 'rules'>, session: SessionObservation, latest: Sample): Condition {
  const { rules } = input
  const { levels } = session
  const rule = rules.reliabilityFalling
  const scores = windowOf(session.samples, latest, rule.windowMinutes).map((s) => s.score)
  const peak = Math.max(...scores)
  const drop = Math.max(0, peak - latest.score)
  // Climbed back within the window, or only steady since the drop left it.
  const rose = Math.min(...scores) <= latest.score - rule.points / 2
  return {
    holds: drop >= rule.points,
    recovered: drop < rule.points / 2,
    severity: 'warning',
    value: Math.round(drop * 100) / 100,
    summary: `Reliability fell ${one(drop)} points within ${one(rule.windowMinutes)} min (${one(peak)} → ${one(latest.score)})`,
    end: alertEnd({ cause: 'cleared', rule: 'reliability-falling', score: latest.score, levels, rose, windowMinutes: rule.windowMinutes })
  }
}

/** 3. Viewers down `percent` from the window's peak, when the peak was a real audience. */
function viewersDropping(rules: AlertRules, session: SessionObservation, latest: Sample): Condition {
  const rule = rules.viewersDropping
  const counts = windowOf(session.samples, latest, rule.windowMinutes).map((s) => s.viewers)
  const peak = Math.max(...counts)
  const percent = peak > 0 ? ((peak - latest.viewers) / peak) * 100 : 0
  // The audience came back within the window, or only held since the fall left it.
  const low = Math.min(...counts)
  const rose = latest.viewers > low && low <= latest.viewers * (1 - rule.percent / 200)
  return {
    holds: peak >= rule.minimumViewers && percent >= rule.percent,
    recovered: peak < rule.minimumViewers || percent < rule.percent / 2,
    severity: 'critical',
    value: Math.round(percent * 10) / 10,
    summary: `Viewers fell ${one(percent)}% within ${one(rule.windowMinutes)} min (${peak} → ${latest.viewers})`,
    end: alertEnd({ cause: 'cleared', rule: 'viewers-dropping', viewers: latest.viewers, rose, windowMinutes: rule.windowMinutes })
  }
}
