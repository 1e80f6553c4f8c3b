// How the core's verdicts on alerts read on every face: the situation (header, nav, Alerts view,
// wall, window title) as the core's headline with an icon for its tone (never colour alone), how
// an alert ended, and how a list of alerts follows the pushes. Nothing here judges: the tone, the
// headline and the end reason are the core's (src/shared/alerts.ts).
import { endHeading } from '../../../shared/alert-end'
import type { Alert, AlertsChanged, AlertSituation, SituationTone } from '../../../shared/alerts'
import { plainText } from '../../../shared/plain-text'

/** One icon per tone; only 'ok' is the tick. */
export const TONE_ICON: Record<SituationTone, string> = {
  ok: '✓',
  held: '‖',
  pending: '◷',
  warning: '▲',
  critical: '✖',
  blind: '⊘'
}

/** The window title: the situation's line, then the app ("✖ 2 alerts firing — Eventwatch"). A
 *  title is one plain line: the headline's names lose their isolate marks (shared/plain-text.ts). */
export function windowTitle(situation: AlertSituation | null): string {
  return situation ? `${TONE_ICON[situation.tone]} ${plainText(situation.headline)} — Eventwatch` : 'Eventwatch'
}

/** The count beside "Alerts" in the views' bar: alerts firing, else pending; null for none. */
export function navCount(situation: AlertSituation | null): { n: number; label: string } | null {
  if (!situation) return null
  if (situation.firing > 0) return { n: situation.firing, label: `${situation.firing} firing` }
  if (situation.pending > 0) return { n: situation.pending, label: `${situation.pending} pending` }
  return null
}

/**
 * How a resolved alert ended, in words, as the core decided it (shared/alert-end.ts): "Resolved —
 * recovered: reliability 97.2, above the warning level 95" only when it recovered; "Ended — no
 * longer falling: …; reliability is still 41, below the critical level 90" or "Ended — connection
 * disabled: no longer polled" when something else ended it. Null while open.
 */
export function endWords(alert: Pick<Alert, 'state' | 'endReason' | 'endKind'>): { word: 'Resolved' | 'Ended'; icon: string; text: string } | null {
  if (alert.state !== 'resolved') return null
  const { word, icon } = endHeading(alert.endKind)
  return { word, icon, text: alert.endReason ? `${word} — ${alert.endReason}` : word }
}

/** How long a resolved alert stays in the alerts view's history (listAlerts' default). */
export const ALERT_HISTORY_MS = 24 * 3_600_000

/**
 * A list of alerts patched by one alertsChanged push: every changed alert replaces the one with
 * its id (or joins the list when `belongs` says it is one of this list's), removed ids leave, and
 * resolved alerts older than `resolvedSince` (ms) drop off the end. The input is not changed.
 */
export function patchAlerts(
  alerts: readonly Alert[],
  change: Pick<AlertsChanged, 'changed' | 'removed'>,
  options: { belongs?: (alert: Alert) => boolean; resolvedSince?: number } = {}
): Alert[] {
  const byId = new Map(alerts.map((a) => [a.id, a]))
  for (const alert of change.changed) {
    if (byId.has(alert.id) || (options.belongs?.(alert) ?? true)) byId.set(alert.id, alert)
  }
  for (const id of change.removed) byId.delete(id)
  const since = options.resolvedSince
  if (since === undefined) return [...byId.values()]
  return [...byId.values()].filter((a) => a.state !== 'resolved' || !a.resolvedAt || Date.parse(a.resolvedAt) >= since)
}
