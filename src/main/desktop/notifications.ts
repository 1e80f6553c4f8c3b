// OS notifications for alerts: one grouped notification per evaluation that fired alerts, a
// quieter one for resolved alerts, nothing while the operator paused notifications or polling —
// as the situation that comes with each alertsChanged says (the core's word, not ours).
//
// "Do not disturb": everything goes through the OS notification centre (Electron's
// Notification), never a window of our own, so macOS Focus, Windows Focus Assist and the Linux
// notification daemon's DND hold them back as they do any app's. Electron has no API to read
// macOS's Focus state, so we do not try to; and on Linux we never ask for 'critical' urgency,
// which GNOME shows even in do-not-disturb.
//
// Resolved alerts: silent always, and only while the window is not focused — an operator
// looking at Eventwatch sees the alert leave the list; one who is elsewhere wants to know they
// can stop worrying, without a sound.
//
// Acting from the notification: one about a single alert still firing (fired, or announced again)
// carries "Acknowledge" and "Snooze 30 min" where Electron shows buttons — macOS (a signed app,
// alert style: electron-builder.yml) and Windows (toast buttons) — and acts through the core as
// the window does (alert-actions.ts). One about several alerts carries none: acknowledging
// alerts unseen is what the window is for. Linux's notification daemons get no buttons from
// Electron: there, as everywhere, a click opens the session.
import { Notification, type NotificationAction } from 'electron'
import { notificationsPaused, type Alert, type AlertsChanged } from '../../shared/alerts'
import { alertSoundFor, soundChoiceOf, type AlertSoundChoice } from '../../shared/alert-sound'
import { acknowledgedBy, acknowledgedText, firedText, repeatedText, resolvedText } from './alert-text'
import type { NotificationText } from './alert-text'
import type { AppTarget } from '../../shared/deep-link'
import { plainText } from '../../shared/plain-text'
import { connectionsPolledOf } from '../../shared/session-name'
import { alertLink } from '../../shared/alert-link'
import type { LinkBase } from '../../shared/session-link'
import type { AlertAction } from './alert-actions'

export interface AlertNotifierDeps {
  /** Brings the window up at this place. */
  open(target: AppTarget): void
  isWindowFocused(): boolean
  /** Milliseconds since the epoch (for the notification pause's end). */
  now(): number
  /** Settings → Display: whether a critical's and a warning's notifications make a sound. */
  sounds?(): AlertSoundChoice
  /** On a team server: this desk's user. A teammate's acknowledgement is then announced (silently),
   *  naming them; the desk's own is not. */
  self?(): string | null
  /** The OS, which decides whether notifications carry buttons (defaults to process.platform). */
  platform?: NodeJS.Platform
  /** Acknowledges or snoozes an alert (alert-actions.ts); without it, no buttons. */
  act?(alertId: number, action: AlertAction): void
  /** Whether this desk's user may act on alerts (a team's viewer may not); defaults to yes. */
  mayAct?(): boolean
  /** Where a session's link points in a notification's body: a team desk's server, whose page a
   *  teammate can open too. None: no link (the notification's click is this desk's link). */
  linkBase?(): LinkBase | null
}

/** The platforms where Electron shows a notification's buttons. */
const BUTTON_PLATFORMS: readonly NodeJS.Platform[] = ['darwin', 'win32']

/** The buttons, in the order of the 'action' event's index. */
export const NOTIFICATION_ACTIONS: readonly { action: AlertAction; text: string }[] = [
  { action: 'acknowledge', text: 'Acknowledge' },
  { action: 'snooze', text: 'Snooze 30 min' }
]

/** The one alert still firing a notification is about, if it is about exactly one. */
const soleFiring = (alerts: readonly Alert[]): Alert | undefined =>
  alerts.length === 1 && alerts[0]!.state === 'firing' ? alerts[0] : undefined

export interface AlertNotifier {
  onAlertsChanged(change: AlertsChanged): void
  /** Says something about the alerts (an action from a notification or the tray that was refused),
   *  silently; a click opens the alerts view. */
  tell(message: string): void
  /** How many notifications are kept alive for their click (tests; bounded). */
  readonly liveCount: number
}

// Electron drops a notification's click handler once the object is garbage collected: keep the
// recent ones referenced until they are clicked or closed, but never without bound.
const MAX_LIVE = 20

export function createAlertNotifier(deps: AlertNotifierDeps): AlertNotifier {
  const live: Notification[] = []

  const forget = (notification: Notification): void => {
    const index = live.indexOf(notification)
    if (index >= 0) live.splice(index, 1)
  }

  const platform = deps.platform ?? process.platform
  const withButtons = (alert: Alert | undefined): alert is Alert =>
    !!alert && !!deps.act && BUTTON_PLATFORMS.includes(platform) && deps.mayAct?.() !== false

  /** The body, and the session's link on a line of its own when there is a link to give. */
  const bodyOf = (text: NotificationText): string => {
    const base = deps.linkBase?.()
    if (!base || text.target.view !== 'session') return text.body
    // alertLink: an id no URL can hold gives no link rather than no notification.
    const link = alertLink(base, text.target)
    return link ? `${text.body}\n${link}` : text.body
  }

  const show = (text: NotificationText, silent: boolean, about?: Alert): void => {
    const buttons = withButtons(about)
    const actions: NotificationAction[] = buttons ? NOTIFICATION_ACTIONS.map(({ text: label }) => ({ type: 'button', text: label })) : []
    const notification = new Notification({ title: text.title, body: bodyOf(text), silent, urgency: 'normal', ...(buttons ? { actions } : {}) })
    notification.on('click', () => {
      forget(notification)
      deps.open(text.target)
    })
    if (buttons) {
      // Electron 45 passes the index in the event's details; older ones as the second argument.
      notification.on('action', (details, index) => {
        const chosen = NOTIFICATION_ACTIONS[typeof details?.actionIndex === 'number' ? details.actionIndex : index]
        forget(notification)
        if (chosen) deps.act!(about.id, chosen.action)
      })
    }
    notification.on('close', () => forget(notification))
    notification.on('failed', (_event, error) => {
      forget(notification)
      console.error('eventwatch: notification failed', error)
    })
    live.push(notification)
    if (live.length > MAX_LIVE) live.shift()
    notification.show()
  }

  return {
    onAlertsChanged(change) {
      if (!Notification.isSupported()) return
      const { pollingPaused, notificationsPausedUntil } = change.situation
      if (pollingPaused || notificationsPaused(notificationsPausedUntil, deps.now())) return
      try {
        const sounds = deps.sounds?.() ?? soundChoiceOf(undefined)
        // Several connections: each session is named with its connection (shared/session-name.ts).
        const polled = connectionsPolledOf(change.situation)
        if (change.fired.length > 0)
          show(firedText(change.fired, polled), alertSoundFor({ fired: change.fired, repeated: [] }, sounds) === null, soleFiring(change.fired))
        if (change.repeated.length > 0) show(repeatedText(change.repeated, polled), !sounds.critical, soleFiring(change.repeated))
        if (change.resolved.length > 0 && !deps.isWindowFocused()) show(resolvedText(change.resolved, polled), true)
        const self = deps.self?.()
        if (self) {
          const byOthers = change.changed.filter((a) => (acknowledgedBy(a) ?? self) !== self)
          if (byOthers.length > 0) show(acknowledgedText(byOthers, polled), true)
        }
      } catch (error) {
        // A notification that cannot be shown must not break the event stream.
        console.error('eventwatch: could not show a notification', error)
      }
    },
    tell(message) {
      if (!Notification.isSupported()) return
      show({ title: 'Eventwatch', body: plainText(message), target: { view: 'alerts' } }, true)
    },
    get liveCount() {
      return live.length
    }
  }
}
