// What a notification says about a batch of alerts, and where clicking it goes. Pure, so every
// wording is unit-tested; notifications.ts only shows the result. Names, summaries and notes are
// anyone's text: each is made plain (shared/plain-text.ts) before it is put in a line.
import { endHeading } from '../../shared/alert-end'
import { alertsTarget, type Alert } from '../../shared/alerts'
import type { AppTarget } from '../../shared/deep-link'
import { plainText } from '../../shared/plain-text'

export interface NotificationText {
  title: string
  body: string
  /** Where a click takes the operator. */
  target: AppTarget
}

/** What the alert is about: the event's name, else its session id, else the connection. */
export function alertSubject(alert: Alert): string {
  return plainText(alert.eventName || alert.eventSessionId || alert.connectionName)
}

/** "Reliability critical: Town Hall", "Cannot reach Contoso": one line of plain text. */
export function alertHeadline(alert: Alert): string {
  return plainText(headlineOf(alert))
}

function headlineOf(alert: Alert): string {
  switch (alert.rule) {
    case 'reliability-below':
      return `Reliability ${alert.severity}: ${alertSubject(alert)}`
    case 'reliability-falling':
      return `Reliability falling: ${alertSubject(alert)}`
    case 'viewers-dropping':
      return `Viewers dropping: ${alertSubject(alert)}`
    case 'monitor-blind':
      return `Cannot reach ${alert.connectionName}`
    case 'site-reliability':
      return `Site ${alert.siteName ? `${alert.site} · ${alert.siteName}` : alert.site} ${alert.severity}: ${alertSubject(alert)}`
  }
}

const MAX_NAMES = 2
const MAX_LINES = 4

/** "Town Hall, Launch, …": distinct subjects, a few of them. */
function subjects(alerts: readonly Alert[]): string {
  const names = [...new Set(alerts.map(alertSubject))]
  return names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES).join(', ')}, …` : names.join(', ')
}

function lines(alerts: readonly Alert[], line: (a: Alert) => string): string {
  const shown = alerts.slice(0, MAX_LINES).map(line)
  if (alerts.length > MAX_LINES) shown.push(`and ${alerts.length - MAX_LINES} more`)
  return shown.join('\n')
}

/** One notification for every alert that fired in one evaluation. */
export function firedText(alerts: readonly Alert[]): NotificationText {
  const target = alertsTarget(alerts)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    return { title: alertHeadline(alert), body: plainText(alert.summary), target }
  }
  return { title: `${alerts.length} alerts: ${subjects(alerts)}`, body: lines(alerts, alertHeadline), target }
}

/** Criticals still firing that nobody acknowledged, announced again (Settings → Alerts → Repeat). */
export function repeatedText(alerts: readonly Alert[]): NotificationText {
  const target = alertsTarget(alerts)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    return { title: `Still firing: ${alertHeadline(alert)}`, body: `Not acknowledged. ${plainText(alert.summary)}`, target }
  }
  return { title: `${alerts.length} criticals still firing, not acknowledged`, body: lines(alerts, alertHeadline), target }
}

/** How it ended, as the core decided: "Resolved" only when it recovered, else "Ended". */
const endWord = (alert: Alert): string => endHeading(alert.endKind).word

/** One quieter notification for every alert that resolved in one evaluation, each saying how it ended. */
export function resolvedText(alerts: readonly Alert[]): NotificationText {
  const target = alertsTarget(alerts)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    const why = alert.endReason ? `${endWord(alert)} — ${plainText(alert.endReason)}. ` : ''
    return { title: `${endWord(alert)}: ${alertHeadline(alert)}`, body: `${why}${plainText(alert.summary)}`, target }
  }
  const allRecovered = alerts.every((a) => endWord(a) === 'Resolved')
  return {
    title: `${alerts.length} alerts ${allRecovered ? 'resolved' : 'ended'}: ${subjects(alerts)}`,
    body: lines(alerts, (a) => (allRecovered ? alertHeadline(a) : `${endWord(a)}: ${alertHeadline(a)}`)),
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
export function acknowledgedText(alerts: readonly Alert[]): NotificationText {
  const target = alertsTarget(alerts)
  if (alerts.length === 1) {
    const alert = alerts[0]!
    const note = alert.transitions.at(-1)?.note
    return { title: `Acknowledged by ${acknowledger(alert)}: ${alertHeadline(alert)}`, body: note ? `"${plainText(note)}"` : plainText(alert.summary), target }
  }
  return {
    title: `${alerts.length} alerts acknowledged`,
    body: lines(alerts, (a) => `${acknowledger(a)}: ${alertHeadline(a)}`),
    target
  }
}
