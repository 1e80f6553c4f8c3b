// Display formatting shared by every screen. Units the API does not state are assumptions,
// documented in the README and shown in the UI: traffic in bytes, reliability on 0–100.

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

export function formatReliability(score: number): string {
  return Number.isFinite(score) ? score.toFixed(1) : '—'
}

/** Share of traffic served by the ECDN, 0–100, or null when there was no traffic. */
export function ecdnOffloadPercent(cdn: number, ecdn: number): number | null {
  const total = cdn + ecdn
  return total > 0 ? (ecdn / total) * 100 : null
}

export type Health = 'good' | 'warning' | 'critical'

/** Provisional thresholds on the 0–100 scale, until alert settings make them editable. */
export const RELIABILITY_WARNING = 95
export const RELIABILITY_CRITICAL = 90

export function reliabilityHealth(score: number): Health {
  if (score < RELIABILITY_CRITICAL) return 'critical'
  if (score < RELIABILITY_WARNING) return 'warning'
  return 'good'
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
