// A session's alerts as moments on its drill-down charts: when each fired and when it resolved.
import type { Alert } from '../../../../shared/alerts'
import type { ChartMark } from '../session/chart-options'
import { endWords } from '../../lib/alert-situation'
import { RULE_NAME, SEVERITY_ICON, SEVERITY_WORD } from './alert-words'

/** Fired and resolved instants of these alerts, oldest first; alerts that never fired draw nothing. */
export function alertMarks(alerts: readonly Alert[]): ChartMark[] {
  const marks: ChartMark[] = []
  for (const alert of alerts) {
    const fired = alert.firedAt ? Date.parse(alert.firedAt) : NaN
    if (!Number.isFinite(fired)) continue
    const rule = RULE_NAME[alert.rule]
    marks.push({
      at: fired,
      kind: 'fired',
      severity: alert.severity,
      label: `${SEVERITY_ICON[alert.severity]} ${SEVERITY_WORD[alert.severity]}: ${rule}`,
      alertId: alert.id
    })
    const resolved = alert.resolvedAt ? Date.parse(alert.resolvedAt) : NaN
    const ended = endWords({ state: 'resolved', endReason: alert.endReason, endKind: alert.endKind })
    if (Number.isFinite(resolved) && ended) {
      marks.push({ at: resolved, kind: 'resolved', severity: alert.severity, label: `${ended.icon} ${ended.word}: ${rule}`, alertId: alert.id })
    }
  }
  return marks.sort((a, b) => a.at - b.at)
}
