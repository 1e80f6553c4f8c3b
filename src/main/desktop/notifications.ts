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
import { Notification } from 'electron'
import { notificationsPaused, type AlertsChanged } from '../../shared/alerts'
import { alertSoundFor, soundChoiceOf, type AlertSoundChoice } from '../../shared/alert-sound'
import { acknowledgedBy, acknowledgedText, firedText, repeatedText, resolvedText } from './alert-text'
import type { NotificationText } from './alert-text'
import type { AppTarget } from '../../shared/deep-link'
import { connectionsPolledOf } from '../../shared/session-name'

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
}

export interface AlertNotifier {
  onAlertsChanged(change: AlertsChanged): void
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

  const show = (text: NotificationText, silent: boolean): void => {
    const notification = new Notification({ title: text.title, body: text.body, silent, urgency: 'normal' })
    notification.on('click', () => {
      forget(notification)
      deps.open(text.target)
    })
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
        if (change.fired.length > 0) show(firedText(change.fired, polled), alertSoundFor({ fired: change.fired, repeated: [] }, sounds) === null)
        if (change.repeated.length > 0) show(repeatedText(change.repeated, polled), !sounds.critical)
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
    get liveCount() {
      return live.length
    }
  }
}
