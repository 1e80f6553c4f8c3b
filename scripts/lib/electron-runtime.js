// Finds the Electron binary, and tries once a day to fetch it when `npm install` did not
// (its download script is not in allowScripts, and corporate networks often block it anyway).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const RETRY_AFTER_MS = 24 * 60 * 60 * 1000

/** The Electron executable, or null when none is installed. */
export function electronBinary(electronDir, env = process.env) {
  const pathFile = join(electronDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const relative = readFileSync(pathFile, 'utf8').trim()
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron')
    : join(electronDir, 'dist', relative)
  return existsSync(binary) ? binary : null
}

export function electronVersion(electronDir) {
  return JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version
}

/** Runs Electron's own download script, quietly, at most once a day after a failure. */
export function tryDownloadElectron(electronDir, stateDir, env = process.env) {
  if (env.EVENTWATCH_SKIP_ELECTRON_DOWNLOAD) return false
  const marker = join(stateDir, 'electron-download-failed')
  if (existsSync(marker) && Date.now() - Number(readFileSync(marker, 'utf8')) < RETRY_AFTER_MS) return false
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: electronDir,
    stdio: 'ignore',
    timeout: 120_000
  })
  if (result.status === 0 && electronBinary(electronDir, env)) return true
  mkdirSync(stateDir, { recursive: true })
  writeFileSync(marker, String(Date.now()))
  return false
}
