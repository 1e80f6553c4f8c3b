// Display formatting shared by every screen. Units the API does not state are assumptions,
// documented in docs/api-assumptions.md and shown in the UI. Reliability arrives on 0–100, judged by the core.

const COUNT = new Intl.NumberFormat('en-US')

export function formatCount(n: number): string {
  return COUNT.format(Math.round(n))
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const

/** Decimal (SI) units, as network traffic is usually reported. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000
    unit++
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1
  return `${value.toFixed(digits)} ${BYTE_UNITS[unit]}`
}

/** A reliability the core already put on 0–100: one decimal, a dash when there is none. */
export function formatReliability(value: number | null): string {
  return value !== null && Number.isFinite(value) ? value.toFixed(1) : '—'
}

export function formatClock(iso: string, timeZone?: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return '—'
  return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone })
}

/** "12 s ago", "4 min ago", "2 h ago". */
export function formatAge(iso: string | null, now: number): string {
  if (!iso) return 'never'
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (seconds < 60) return `${seconds} s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  return `${Math.floor(seconds / 3600)} h ago`
}

/** Data older than a few poll intervals is stale and must look it. */
export function isStale(lastUpdateAt: string | null, now: number, pollIntervalSeconds: number): boolean {
  if (!lastUpdateAt) return false
  return now - Date.parse(lastUpdateAt) > Math.max(3 * pollIntervalSeconds, 30) * 1000
}
