// Windows shows an app's notifications only when the app has a user model id; without it they
// silently vanish (outside an installer-created Start menu shortcut).
import { app } from 'electron'

export const APP_USER_MODEL_ID = 'com.eventwatch.desktop'

export function applyAppIdentity(platform: NodeJS.Platform): void {
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID)
}
