// 5. A site below level (issue 16): one office's viewers (the site code of their current network
// connection) under the rule's own levels while the session itself is at or above its warning
// level, the way an ECDN peer going down shows. The rule has levels of its own because viewers'
// scores scatter around the session's: a healthy site sits a few points either side of it.
// Judged on each new viewer list, per site with at least the minimum viewers; it clears at the
// site warning level plus the margin, or when the site has too few viewers left to judge.
import type { AlertSeverity } from '../../../shared/alerts'
import { siteLabel } from '../../../shared/site-label'
import type { Condition } from './conditions'
import type { EngineInput, SessionObservation, SiteSample } from './engine'
import { alertEnd } from './end-reason'

const one = (n: number): string => (Math.round(n * 10) / 10).toString()

/** Null when there is nothing to judge (no reliability known for the site). */
export function siteCondition(input: Pick<EngineInput, 'rules'>, session: SessionObservation, site: SiteSample): Condition | null {
  const rule = input.rules.siteReliability
  const { levels } = session
  const sessionScore = session.samples.at(-1)?.score
  const tooFew = site.viewers < rule.minimumViewers
  const end = (score: number | null) =>
    alertEnd({ cause: 'cleared', rule: 'site-reliability', score, viewers: site.viewers, warningBelow: rule.warningBelow, minimumViewers: rule.minimumViewers })
  if (site.reliability === null) return tooFew ? { holds: false, recovered: true, severity: 'warning', value: 0, summary: '', end: end(null) } : null
  const score = site.reliability
  const severity: AlertSeverity = score < rule.criticalBelow ? 'critical' : 'warning'
  const level = severity === 'critical' ? rule.criticalBelow : rule.warningBelow
  // The session's own alert speaks when the whole session is down; this one finds the office.
  const sessionHolds = sessionScore === undefined || Number.isNaN(sessionScore) || sessionScore >= levels.warning
  const sessionWords = sessionScore === undefined || Number.isNaN(sessionScore) ? '' : `; the session ${one(sessionScore)}`
  return {
    holds: !tooFew && score < rule.warningBelow && sessionHolds,
    recovered: tooFew || score >= rule.warningBelow + rule.recoveryMargin,
    severity,
    value: Math.round(score * 10) / 10,
    // Named by its code: the store reads it under the site's name as it is then (shared/site-label.ts).
    summary: `${siteLabel(site.site, null)}: reliability ${one(score)} for ${site.viewers} viewers, below the site ${severity} level ${one(level)}${sessionWords}`,
    end: end(score)
  }
}
