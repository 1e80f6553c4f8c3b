// Where the cache lives by default, per OS convention (the desktop app uses Electron's own
// userData directory instead).
import { homedir } from 'node:os'
import { join } from 'node:path'

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Eventwatch')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Eventwatch')
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'eventwatch')
}

export const defaultDbFile = (): string => join(defaultDataDir(), 'eventwatch.db')
