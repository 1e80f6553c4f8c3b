// Web notifications in the browser host: whether to show one, and what it says. Pure decisions
// (tested in test/unit/alerts-ui-notify.test.ts); the store does the showing.
//
// - The desktop window shows none: its main process already notifies through the OS.
// - Nothing is asked on load: permission is requested from the operator's click only.
// - One notification per push, however many alerts it brings: "3 alerts" and their names.
// - Resolutions are quieter: silent, and only while the page is hidden — an operator looking
//   at the page sees the alert leave the list; one who is not still learns it is over.
// - A maintenance pause (the situation's notificationsPausedUntil, in the future) holds every
//   notification back.
// - Names, summaries, notes and who acknowledged are anyone's text: each is made plain
//   (shared/plain-text.ts) before it is put in a title or a line.
import type { AppTarget } from '../../../shared/deep-link'
import { alertsTarget, notificationsPaused, type Alert, type AlertsChanged } from '../../../shared/alerts'
import { alertSoundFor, soundChoiceOf, type AlertSoundChoice, type AlertSoundKind } from '../../../shared/alert-sound'
import { plainText } from '../../../shared/plain-text'
import { alertSubjectParts, connectionsPolledOf, titleText } from '../../../shared/session-name'
import { endWords } from './alert-situation'

export type PermissionState = 'default' | 'granted' | 'denied' | 'unsupported'

export interface NotifyContext {
  now: number
  /** True in the desktop window (window.eventwatch exists). */
  desktop: boolean
  permission: PermissionState
  pageHidden: boolean
  /** Settings → Display: the critical's and the warning's sound, each on or off (the defaults when absent). */
  sound?: AlertSoundChoice
  /** On a team server: who this page is signed in as. A teammate's acknowledgement is then
   *  announced (quietly, while the page is hidden), naming them; this user's own is not. */
  self?: string | null
}

/** Where a click leads: the same targets the desktop's tray and notifications use. */
export type NotifyTarget = AppTarget

export interface NotificationPlan {
  title: string
  body: string
  /** Same tag replaces an older notification of the same alerts rather than stacking. */
  tag: string
  silent: boolean
  /** Where a click on it goes. */
  target: NotifyTarget
}

/** Why no web notification would be shown now, in words for the alerts view; null if they would. */
export function notificationBlocker(ctx: Pick<NotifyContext, 'desktop' | 'permission'>): string | null {
  if (ctx.desktop) return 'The desktop app notifies through the operating system.'
  switch (ctx.permission) {
    case 'unsupported':
      return 'This browser cannot show notifications; alerts show on this page only.'
    case 'denied':
      return "Notifications are blocked for this page in the browser's site settings."
    case 'default':
      return 'Browser notifications are off until you enable them.'
    case 'granted':
      return null
  }
}

const RULE_SHORT: Record<Alert['rule'], string> = {
  'reliability-below': 'reliability below level',
  'reliability-falling': 'reliability falling',
  'viewers-dropping': 'viewers dropping',
  'monitor-blind': 'cannot reach the service',
  'site-reliability': 'a site below level'
}

/** Its session, with its connection when several are polled (shared/session-name.ts); a
 *  connection-wide alert's connection. */
const placeIn =
  (connectionsPolled: number) =>
  (a: Alert): string =>
    titleText(alertSubjectParts(a, connectionsPolled))
const summary = (a: Alert): string => plainText(a.summary)

/** At most this many names in a grouped body; the rest are counted. */
const MAX_LINES = 4

function group(alerts: readonly Alert[], verb: 'fired' | 'resolved' | 'repeated', place: (a: Alert) => string): { title: string; body: string } {
  const first = alerts[0]!
  // An alert ended by something else than recovery (its connection no longer polled…) says so.
  const ended = (a: Alert) => endWords({ state: 'resolved', endReason: a.endReason, endKind: a.endKind })
  const mark = (a: Alert): string => (verb === 'resolved' ? (ended(a)?.icon ?? '✓') : a.severity === 'critical' ? '✖' : '▲')
  if (alerts.length === 1) {
    const end = ended(first)
    const severity = verb === 'resolved' ? (end?.word ?? 'Resolved') : first.severity === 'critical' ? 'Critical' : 'Warning'
    // How it ended comes first: "Ended — no longer falling: …; still 41" is no recovery.
    const why = verb === 'resolved' && end && first.endReason ? `${end.text}. ` : ''
    const still = verb === 'repeated' ? 'Still firing, not acknowledged — ' : ''
    return { title: `${mark(first)} ${severity}: ${place(first)}`, body: `${why}${still}${summary(first)}` }
  }
  const critical = alerts.some((a) => a.severity === 'critical')
  const lines = alerts.slice(0, MAX_LINES).map((a) => `${mark(a)} ${place(a)}: ${RULE_SHORT[a.rule]}`)
  if (alerts.length > MAX_LINES) lines.push(`and ${alerts.length - MAX_LINES} more`)
  const title =
    verb === 'resolved'
      ? alerts.every((a) => ended(a)?.word !== 'Ended')
        ? `✓ ${alerts.length} alerts resolved`
        : `■ ${alerts.length} alerts ended`
      : verb === 'repeated'
        ? `✖ ${alerts.length} criticals still firing, not acknowledged`
        : `${critical ? '✖' : '▲'} ${alerts.length} alerts`
  return { title, body: lines.join('\n') }
}

/** Alerts that someone other than `self` just acknowledged (their newest transition). */
function acknowledgedByOthers(changed: readonly Alert[], self: string): Alert[] {
  return changed.filter((a) => {
    const last = a.transitions.at(-1)
    return a.state === 'acknowledged' && last?.state === 'acknowledged' && !!last.by && last.by !== self
  })
}

/** What one alertsChanged push should show as a web notification, or null for nothing. */
export function planNotification(change: AlertsChanged, ctx: NotifyContext): NotificationPlan | null {
  if (ctx.desktop || ctx.permission !== 'granted' || notificationsPaused(change.situation.notificationsPausedUntil, ctx.now)) return null
  const place = placeIn(connectionsPolledOf(change.situation))
  // Only alerts that really fire now: a muted or snoozed one must stay quiet.
  const fired = change.fired.filter((a) => a.state === 'firing')
  const sound = ctx.sound ?? soundChoiceOf(undefined)
  if (fired.length > 0) {
    const silent = alertSoundFor({ fired, repeated: [] }, sound) === null
    return { ...group(fired, 'fired', place), tag: `fired:${fired.map((a) => a.id).join(',')}`, silent, target: alertsTarget(fired) }
  }
  if (change.repeated.length > 0) {
    const repeated = change.repeated
    // Each repeat its own tag (a browser replaces a notification of the same tag, silently):
    // the revision says which, in its epoch (a restarted core counts from 0 again).
    const tag = `repeated:${repeated.map((a) => a.id).join(',')}:${change.situation.epoch}:${change.situation.revision}`
    return { ...group(repeated, 'repeated', place), tag, silent: !sound.critical, target: alertsTarget(repeated) }
  }
  const byTeammates = ctx.self ? acknowledgedByOthers(change.changed, ctx.self) : []
  if (byTeammates.length > 0 && ctx.pageHidden) {
    const first = byTeammates[0]!
    const by = (a: Alert): string => plainText(a.transitions.at(-1)?.by ?? 'a teammate')
    const note = first.transitions.at(-1)?.note
    return {
      title: byTeammates.length === 1 ? `✔ Acknowledged by ${by(first)}: ${place(first)}` : `✔ ${byTeammates.length} alerts acknowledged`,
      body: byTeammates.length === 1 ? (note ? `"${plainText(note)}"` : summary(first)) : byTeammates.map((a) => `${by(a)}: ${place(a)}`).slice(0, MAX_LINES).join('\n'),
      tag: `acknowledged:${byTeammates.map((a) => `${a.id}@${a.transitions.at(-1)?.at ?? ''}`).join(',')}`,
      silent: true,
      target: alertsTarget(byTeammates)
    }
  }
  if (change.resolved.length > 0 && ctx.pageHidden) {
    const resolved = change.resolved
    return {
      ...group(resolved, 'resolved', place),
      tag: `resolved:${resolved.map((a) => a.id).join(',')}`,
      silent: true,
      target: alertsTarget(resolved)
    }
  }
  return null
}

/** The sound this push plays in the page (shared/alert-sound.ts), or null: none in the desktop
 *  window (its OS notifications make their own) nor while notifications are paused. */
export function pageSoundFor(change: AlertsChanged, ctx: Pick<NotifyContext, 'now' | 'desktop' | 'sound'>): AlertSoundKind | null {
  if (ctx.desktop || notificationsPaused(change.situation.notificationsPausedUntil, ctx.now)) return null
  return alertSoundFor(change, ctx.sound ?? soundChoiceOf(undefined))
}
