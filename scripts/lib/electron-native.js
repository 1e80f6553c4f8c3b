// better-sqlite3 for Electron: Electron's ABI differs from Node's, so the app loads its own
// copy from .native/electron-<version>/ (through the nativeBinding option) while tests and
// the CLI keep using node_modules' Node build. Neither ever overwrites the other. Built by
// @electron/rebuild (a prebuilt binary where one is published, else compiled against
// Electron's headers) in a throwaway project holding a copy of the package.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

export function electronSqlitePath(root, version) {
  return join(root, '.native', `electron-${version}`, 'better_sqlite3.node')
}

/**
 * Builds (or fetches a prebuilt) better-sqlite3 for this Electron version; returns its path, or
 * null with the reason written to stderr in one line.
 */
export async function ensureElectronSqlite(root, version, rebuildWith = loadRebuild) {
  const target = electronSqlitePath(root, version)
  if (existsSync(target)) return target
  const project = join(root, '.native', 'build')
  const work = join(project, 'node_modules', 'better-sqlite3')
  rmSync(project, { recursive: true, force: true })
  mkdirSync(dirname(work), { recursive: true })
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'eventwatch-native', private: true, dependencies: { 'better-sqlite3': '*' } }))
  cpSync(join(root, 'node_modules', 'better-sqlite3'), work, {
    recursive: true,
    filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`)
  })
  try {
    const rebuild = await rebuildWith()
    // Node's own headers (npm's nodedir) are not Electron's: let it fetch the right ones.
    process.env.npm_config_nodedir = ''
    await rebuild({ buildPath: project, electronVersion: version, onlyModules: ['better-sqlite3'], force: true })
  } catch (error) {
    process.stderr.write(`Eventwatch: @electron/rebuild could not build better-sqlite3 for Electron ${version}: ${String(error?.message ?? error).split('\n', 1)[0]}\n`)
    return null
  }
  const binary = join(work, 'build', 'Release', 'better_sqlite3.node')
  if (!existsSync(binary)) return null
  mkdirSync(dirname(target), { recursive: true })
  cpSync(binary, target)
  return target
}

async function loadRebuild() {
  const { rebuild } = await import('@electron/rebuild')
  return rebuild
}
