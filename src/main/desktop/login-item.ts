// Start at login (issue 15): the desktop setting `startAtLogin`, applied to the OS. macOS and
// Windows keep login items themselves (app.setLoginItemSettings); Linux desktops read an XDG
// autostart entry, which Electron does not write, so it is written here. Either way the app is
// started with --hidden, and then comes up in the tray with no window.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { app } from 'electron'

export const HIDDEN_FLAG = '--hidden'

export interface LoginItemPlace {
  platform: NodeJS.Platform
  /** What to start: the AppImage when running from one (its mount point changes every run). */
  executable: string
  env: NodeJS.ProcessEnv
}

export function currentPlace(platform: NodeJS.Platform): LoginItemPlace {
  return { platform, executable: process.env['APPIMAGE'] || process.execPath, env: process.env }
}

/** Where a Linux desktop looks for programs to start at login. */
export function autostartFile(env: NodeJS.ProcessEnv): string {
  const configHome = env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config')
  return join(configHome, 'autostart', 'eventwatch.desktop')
}

export function applyStartAtLogin(enabled: boolean, place: LoginItemPlace): void {
  if (place.platform === 'linux') {
    const file = autostartFile(place.env)
    if (!enabled) return void rmSync(file, { force: true })
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, desktopEntry(place.executable))
    return
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: enabled ? [HIDDEN_FLAG] : [] })
}

/** Started by the login item (or by hand with --hidden): the tray only, no window. */
export function startedHidden(argv: readonly string[], platform: NodeJS.Platform): boolean {
  if (argv.includes(HIDDEN_FLAG)) return true
  return platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true
}

/** An XDG desktop entry; Exec's argument quoted as the specification asks. */
function desktopEntry(executable: string): string {
  const quoted = `"${executable.replace(/(["`$\\])/g, '\\$1')}"`
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Eventwatch',
    'Comment=Watch live streamed events (starts in the tray)',
    `Exec=${quoted} ${HIDDEN_FLAG}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    ''
  ].join('\n')
}
