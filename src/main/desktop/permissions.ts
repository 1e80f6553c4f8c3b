// The renderer asks for no browser permission (camera, geolocation, clipboard, ...), so every
// request and every check is denied.
// Note: OS notifications for alerts are shown from the main process with Electron's
// `Notification`, which needs no renderer permission. Should the page ever need one (e.g. the
// web Notification API), allow that single permission here, for the app's own origin only.
import type { Session } from 'electron'

export function denyAllPermissions(session: Session): void {
  // Asynchronous requests (getUserMedia, Notification.requestPermission, ...).
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false)
  })
  // Synchronous checks (navigator.permissions.query, ...): answer "denied" too, or Chromium
  // may report a permission as granted that the request handler would refuse.
  session.setPermissionCheckHandler(() => false)
  // Device pickers (HID, serial, USB).
  session.setDevicePermissionHandler(() => false)
}
