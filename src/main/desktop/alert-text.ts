// What a notification says about a batch of alerts, and where clicking it goes. Pure, so every
// wording is unit-tested; notifications.ts only shows the result. Names, summaries and notes are
// anyone's text: each is made plain (shared/plain-text.ts) before it is put in a line.
import { endHeading } from '../../shared/alert-end'
import { alertsTarget, type Alert } from '../../shared/alerts'
import type { AppTarget } from '../../shared/deep-link'
import { plainText } from '../../shared/plain-text'
import { alertSubjectParts, titleText } from '../../shared/session-name'
import { siteLabel } from '../../shared/site-label'

export interface NotificationText {
  title: string
  body: string
  /** Where a click takes the operator. */
  target: AppTarget
}

/** What the alert is about: its session ("Town Hall (Contoso)" when several connections are
 *  polled: shared/session-name.ts), or the connection for a connection-wide alert. */
export function alertSubject(alert: Alert, connectionsPolled = 1): string {
  return titleText(alertSubjectParts(alert, connectionsPolled))
}

/** "Reliability critical: Town Hall", "Leeds office critical: Town Hall (Contoso)", "Cannot reach
 *  Contoso": one line of plain text. */
export function alertHeadline(alert: Alert, connectionsPolled = 1): string {
  return plainText(headlineOf(alert, alertSubject(alert, connectionsPolled)))
}

function headlineOf(alert: Alert, subject: string): string {
  switch (alert.rule) {
    case 'reliability-below':
      return `Reliability ${alert.severity}: ${subject}`
    case 'reliability-falling':
      return `Reliability falling: ${subject}`
    case 'viewers-dropping':
      return `Viewers dropping: ${subject}`
    case 'monitor-blind':
      return `Cannot reach ${alert.connectionName}`
    case 'site-reliability':
      return `${alert.site === null ? 'A site' : siteLabel(alert.site, alert.siteName)} ${alert.severity}: ${subject}`
  }
}

const MAX_NAMES = 2
const MAX_LINES = 4

/** "Town Hall, Launch, …": distinct subjects, a few of them. */
function subjects(alerts: readonly Alert[], connectionsPolled: number): string {
  const names = [...new Set(alerts.map((a) => alertSubject(a, connectionsPolled)))]
  return names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES).join(', ')}, …` : names.join(', ')
}

function lines(alerts: readonly Alert[], line: (a: Alert) => string): string {
  const shown = alerts.slice(0, MAX_LINES).map(line)
  if (alerts.length > MAX_LINES) shown.push(`and ${alerts.length - MAX_LINES} more`)
  return shown.join('\n')
}

/** One notification for every alert that fired in one evaluation. */
export function firedText(alerts: readonly Alert[], connectionsPolled = 1): NotificationText {
  const target = alertsTarget(alerts)
  const headline = (a: Alert): string => alertHeadline(a, connectionsPolled)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    return { title: headline(alert), body: plainText(alert.summary), target }
  }
  return { title: `${alerts.length} alerts: ${subjects(alerts, connectionsPolled)}`, body: lines(alerts, headline), target }
}

/** Criticals still firing that nobody acknowledged, announced again (Settings → Alerts → Repeat). */
export function repeatedText(alerts: readonly Alert[], connectionsPolled = 1): NotificationText {
  const target = alertsTarget(alerts)
  const headline = (a: Alert): string => alertHeadline(a, connectionsPolled)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    return { title: `Still firing: ${headline(alert)}`, body: `Not acknowledged. ${plainText(alert.summary)}`, target }
  }
  return { title: `${alerts.length} criticals still firing, not acknowledged`, body: lines(alerts, headline), target }
}

/** How it ended, as the core decided: "Resolved" only when it recovered, else "Ended". */
const endWord = (alert: Alert): string => endHeading(alert.endKind).word

/** One quieter notification for every alert that resolved in one evaluation, each saying how it ended. */
export function resolvedText(alerts: readonly Alert[], connectionsPolled = 1): NotificationText {
  const target = alertsTarget(alerts)
  const headline = (a: Alert): string => alertHeadline(a, connectionsPolled)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    const why = alert.endReason ? `${endWord(alert)} — ${plainText(alert.endReason)}. ` : ''
    return { title: `${endWord(alert)}: ${headline(alert)}`, body: `${why}${plainText(alert.summary)}`, target }
  }
  const allRecovered = alerts.every((a) => endWord(a) === 'Resolved')
  return {
    title: `${alerts.length} alerts ${allRecovered ? 'resolved' : 'ended'}: ${subjects(alerts, connectionsPolled)}`,
    body: lines(alerts, (a) => (allRecovered ? headline(a) : `${endWord(a)}: ${headline(a)}`)),
    target
  }
}

/** Who acknowledged it last (a team's user), when anyone did. */
export const acknowledgedBy = (alert: Alert): string | null => {
  const last = alert.transitions.at(-1)
  return alert.state === 'acknowledged' && last?.state === 'acknowledged' ? (last.by ?? null) : null
}

/** Who acknowledged it, as a notification names them. */
const acknowledger = (alert: Alert): string => plainText(acknowledgedBy(alert) ?? 'a teammate')

/** In a team: alerts a teammate just acknowledged, naming them (and their note). */
export function acknowledgedText(alerts: readonly Alert[], connectionsPolled = 1): NotificationText {
  const target = alertsTarget(alerts)
  const headline = (a: Alert): string => alertHeadline(a, connectionsPolled)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    const note = alert.transitions.at(-1)?.note
    return { title: `Acknowledged by ${acknowledger(alert)}: ${headline(alert)}`, body: note ? `"${plainText(note)}"` : plainText(alert.summary), target }
  }
  return {
    title: `${alerts.length} alerts acknowledged`,
    body: lines(alerts, (a) => `${acknowledger(a)}: ${headline(a)}`),
    target
  }
}
