// better-sqlite3 for Electron: Electron's ABI differs from Node's, so the app loads its own
// copy from .native/electron-<version>/ (through the nativeBinding option) while tests and
// the CLI keep using node_modules' Node build. Neither ever overwrites the other.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'

export function electronSqlitePath(root, version) {
  return join(root, '.native', `electron-${version}`, 'better_sqlite3.node')
}

/** Builds (or fetches a prebuilt) better-sqlite3 for this Electron version; returns its path or null. */
export function ensureElectronSqlite(root, version) {
  const target = electronSqlitePath(root, version)
  if (existsSync(target)) return target
  const work = join(root, '.native', 'build', 'better-sqlite3')
  rmSync(work, { recursive: true, force: true })
  mkdirSync(dirname(work), { recursive: true })
  cpSync(join(root, 'node_modules', 'better-sqlite3'), work, {
    recursive: true,
    filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`)
  })
  const env = { ...process.env, npm_config_nodedir: '' }
  const prebuilt = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'prebuild-install', 'bin.js'), '--runtime=electron', `--target=${version}`],
    { cwd: work, stdio: 'ignore', env, timeout: 120_000 }
  )
  if (prebuilt.status !== 0) {
    const gyp = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
    const built = spawnSync(
      process.execPath,
      [gyp, 'rebuild', '--release', `--target=${version}`, '--dist-url=https://electronjs.org/headers'],
      { cwd: work, stdio: 'ignore', env, timeout: 600_000 }
    )
    if (built.status !== 0) return null
  }
  const binary = join(work, 'build', 'Release', 'better_sqlite3.node')
  if (!existsSync(binary)) return null
  mkdirSync(dirname(target), { recursive: true })
  cpSync(binary, target)
  return target
}
