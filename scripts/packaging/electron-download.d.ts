export interface BuildTarget {
  platform: string
  arch: string
}
export type Availability = { ok: true } | { ok: false; reason: string }

export function electronZipName(version: string, platform: string, arch: string): string
export function electronCacheDir(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform, home?: string): string
export function findCachedElectronZip(cacheDir: string, zipName: string): string | null
export function electronDownloadUrl(version: string, platform: string, arch: string, env?: NodeJS.ProcessEnv): string
export function probeDownload(url: string, timeoutMs?: number): Promise<string | null>
export function electronAvailability(options: {
  version: string
  targets: BuildTarget[]
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}): Promise<Availability>
