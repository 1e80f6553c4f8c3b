// An AppImage has no installer to put `eventwatch` on the PATH, so the app does it at start:
// ~/.local/bin/eventwatch (on the PATH of most Linux desktops), a launcher that runs this
// AppImage in --cli mode. Written again when the AppImage moves or is updated; a file of that
// name that is not ours is left alone.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { CLI_FLAG } from './cli-mode'

const MARK = '# written by Eventwatch (AppImage)'

export type CommandInstall = { installed: string } | { skipped: string }

export function appImageCommandFile(env: NodeJS.ProcessEnv): string {
  return join(env['HOME'] || homedir(), '.local', 'bin', 'eventwatch')
}

export function launcherFor(appImage: string): string {
  const quoted = `'${appImage.replace(/'/g, `'\\''`)}'`
  return `#!/bin/sh\n${MARK}: the Eventwatch command line, run by the AppImage it came with.\nexec ${quoted} --ozone-platform=headless ${CLI_FLAG} "$@"\n`
}

/** Writes (or refreshes) the launcher when running from an AppImage; says what it did. */
export function installAppImageCommand(env: NodeJS.ProcessEnv): CommandInstall {
  const appImage = env['APPIMAGE']
  if (!appImage) return { skipped: 'not running from an AppImage' }
  const file = appImageCommandFile(env)
  const wanted = launcherFor(appImage)
  if (existsSync(file)) {
    const current = readFileSync(file, 'utf8')
    if (!current.includes(MARK)) return { skipped: `${file} exists and is not Eventwatch's` }
    if (current === wanted) return { installed: file }
  }
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, wanted)
  chmodSync(file, 0o755)
  return { installed: file }
}
