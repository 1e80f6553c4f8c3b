// Can electron-builder get the Electron runtime it packages? It unzips
// electron-v<version>-<platform>-<arch>.zip from its cache or downloads it (app-builder's
// pkg/electron/electronDownloader.go); this answers the same question first, quickly, so
// `npm run dist` can say in one line why it cannot build instead of failing deep inside.
import { existsSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

const PROBE_TIMEOUT_MS = 5000
const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/v'

export function electronZipName(version, platform, arch) {
  return `electron-v${version}-${platform}-${arch}.zip`
}

/** Where the zip is cached: ELECTRON_CACHE, else the per-OS "electron" cache directory. */
export function electronCacheDir(env = process.env, platform = process.platform, home = homedir()) {
  if (env.ELECTRON_CACHE) return env.ELECTRON_CACHE
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'electron')
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'electron', 'Cache')
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'electron')
}

/**
 * The cached zip, or null. app-builder keeps it at <cache>/<zip>; @electron/get (electron's own
 * install script) at <cache>/<hash of the URL>/<zip>; electron-builder finds the latter too.
 */
export function findCachedElectronZip(cacheDir, zipName) {
  const flat = join(cacheDir, zipName)
  if (existsSync(flat)) return flat
  if (!existsSync(cacheDir)) return null
  for (const entry of readdirSync(cacheDir, { withFileTypes: true })) {
    const nested = join(cacheDir, entry.name, zipName)
    if (entry.isDirectory() && existsSync(nested)) return nested
  }
  return null
}

/** The URL app-builder downloads from, with its precedence of mirror settings. */
export function electronDownloadUrl(version, platform, arch, env = process.env) {
  const base =
    env.NPM_CONFIG_ELECTRON_MIRROR || env.npm_config_electron_mirror || env.ELECTRON_MIRROR || DEFAULT_MIRROR
  const dir = env.ELECTRON_CUSTOM_DIR || version
  const file = env.ELECTRON_CUSTOM_FILENAME || electronZipName(version, platform, arch)
  return `${base}${dir}/${file}`
}

/** Why a HEAD request for `url` failed, or null if the file is there (redirects followed). */
export async function probeDownload(url, timeoutMs = PROBE_TIMEOUT_MS) {
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) })
    return response.ok ? null : `HTTP ${response.status}`
  } catch (error) {
    if (error?.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
    const cause = error?.cause
    if (cause?.code) return `${cause.code}${cause.hostname ? ` ${cause.hostname}` : ''}`
    return String(cause?.message ?? error?.message ?? error)
  }
}

/**
 * Whether each { platform, arch } target's Electron zip is cached or downloadable.
 * Returns { ok: true } or { ok: false, reason } with a one-line reason.
 */
export async function electronAvailability({ version, targets, env = process.env, timeoutMs = PROBE_TIMEOUT_MS }) {
  const cacheDir = electronCacheDir(env)
  const missing = targets.filter(({ platform, arch }) => !findCachedElectronZip(cacheDir, electronZipName(version, platform, arch)))
  // Node's fetch ignores HTTP(S)_PROXY, which electron-builder's downloader honours: behind a
  // proxy a failed probe proves nothing, so let electron-builder try.
  if (missing.length === 0 || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy) return { ok: true }
  const failures = await Promise.all(
    missing.map(async ({ platform, arch }) => {
      const url = electronDownloadUrl(version, platform, arch, env)
      const problem = await probeDownload(url, timeoutMs)
      return problem && { platform, arch, url, problem }
    })
  )
  const failed = failures.find(Boolean)
  if (!failed) return { ok: true }
  return {
    ok: false,
    reason:
      `the Electron ${version} runtime for ${failed.platform}-${failed.arch} is not in ${cacheDir} ` +
      `and cannot be downloaded (${failed.url}: ${failed.problem})`
  }
}
