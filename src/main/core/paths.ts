// Where the cache lives by default: the same file the desktop app uses, in the OS's per-user
// app data folder (Electron's userData for an app named "eventwatch"). EVENTWATCH_DB overrides.
import { homedir } from 'node:os'
import { join } from 'node:path'

export const APP_DIR_NAME = 'eventwatch'

/** Electron's appData folder: %APPDATA%, ~/Library/Application Support, or $XDG_CONFIG_HOME. */
export function appDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return env.APPDATA || join(homedir(), 'AppData', 'Roaming')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support')
  return env.XDG_CONFIG_HOME || join(homedir(), '.config')
}

export function defaultDbFile(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return env.EVENTWATCH_DB || join(appDataDir(env, platform), APP_DIR_NAME, 'eventwatch.db')
}
