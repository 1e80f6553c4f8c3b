// better-sqlite3 is a native module: the binary in node_modules is built for Node (tests, CLI)
// and cannot load in Electron, whose ABI differs. The launcher builds a second copy for the
// running Electron version under .native/; this finds it.
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** A version string as Electron reports it ("40.1.0", "40.0.0-beta.3"); nothing path-like. */
const VERSION = /^[0-9A-Za-z.+-]+$/

export function electronNativeBindingPath(
  appRoot: string,
  electronVersion: string
): string | undefined {
  if (!VERSION.test(electronVersion) || electronVersion.includes('..')) return undefined
  const file = join(appRoot, '.native', `electron-${electronVersion}`, 'better_sqlite3.node')
  return existsSync(file) ? file : undefined
}
