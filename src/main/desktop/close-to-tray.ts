// Closing the window hides it: Eventwatch keeps watching from the tray. Only a real quit (tray
// menu, Cmd+Q, the OS logging out) lets the window close. The first time, it says so.
import { dialog, Notification } from 'electron'
import type { BrowserWindow } from 'electron'
import type { OneTimeHints } from './one-time-hints'

export const TRAY_HINT_KEY = 'closeKeepsRunningInTray'
export const TRAY_HINT_TITLE = 'Eventwatch is still running'
export const TRAY_HINT_BODY =
  'It keeps watching your live sessions from the tray and tells you when an alert fires. Use Quit in the tray menu to stop it.'

export interface CloseToTrayDeps {
  isQuitting(): boolean
  hints: OneTimeHints
}

/** Says once, ever, that closing did not quit: a notification, or a dialog where the OS has none. */
export function explainTrayOnce(hints: OneTimeHints): void {
  if (hints.seen(TRAY_HINT_KEY)) return
  hints.markSeen(TRAY_HINT_KEY)
  if (Notification.isSupported()) {
    new Notification({ title: TRAY_HINT_TITLE, body: TRAY_HINT_BODY, silent: true }).show()
  } else {
    dialog
      .showMessageBox({ type: 'info', title: 'Eventwatch', message: TRAY_HINT_TITLE, detail: TRAY_HINT_BODY, buttons: ['OK'] })
      .catch((error: unknown) => console.error('eventwatch: could not show the tray hint', error))
  }
}

export function keepRunningOnClose(window: BrowserWindow, deps: CloseToTrayDeps): void {
  window.on('close', (event) => {
    if (deps.isQuitting()) return
    event.preventDefault()
    window.hide()
    explainTrayOnce(deps.hints)
  })
}
