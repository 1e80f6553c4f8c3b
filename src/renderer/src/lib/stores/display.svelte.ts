// How every screen shows numbers and times: the operator's display settings, reliability
// thresholds and the units in use (set, or detected from the data: the API does not say).
// One store, loaded from getSettings and replaced when Settings saves, so every screen agrees.
import type { AppClient } from '../../../../shared/client'
import { formatBytes, type Health } from '../../../../shared/format'
import { formatter } from '../date-format'
import {
  DEFAULT_DISPLAY,
  DEFAULT_THRESHOLDS,
  type AppSettings,
  type DisplaySettings,
  type ReliabilityThresholds,
  type ResolvedUnits
} from '../../../../shared/settings'

const FALLBACK_UNITS: ResolvedUnits = {
  reliabilityScale: { value: '0-100', source: 'default', reason: 'settings not loaded yet; assumed 0–100' },
  trafficUnit: { value: 'bytes', source: 'default', reason: 'settings not loaded yet; assumed bytes' },
  viewerTimeUnit: { value: 'seconds', source: 'default', reason: 'settings not loaded yet; assumed seconds' }
}

/** ms since epoch from an ISO string or a number; null when it is not a time. */
function toMs(at: string | number | null): number | null {
  if (at === null) return null
  const ms = typeof at === 'number' ? at : Date.parse(at)
  return Number.isFinite(ms) ? ms : null
}

const TRAFFIC_TO_BYTES = { bytes: 1, kilobytes: 1e3, megabytes: 1e6 } as const

export class DisplayStore {
  display = $state<DisplaySettings>({ ...DEFAULT_DISPLAY })
  thresholds = $state<ReliabilityThresholds>({ ...DEFAULT_THRESHOLDS })
  units = $state<ResolvedUnits>(FALLBACK_UNITS)
  loaded = $state(false)

  /** Takes settings as getSettings or saveSettings returned them, and applies the theme. */
  apply(settings: AppSettings): void {
    this.display = settings.display
    this.thresholds = settings.thresholds
    this.units = settings.units
    this.loaded = true
    if (typeof document !== 'undefined') document.documentElement.dataset.theme = settings.display.theme
  }

  async load(client: AppClient): Promise<string | null> {
    const result = await client.request('getSettings', {})
    if (!result.ok) return result.error.message
    this.apply(result.value)
    return null
  }

  /** The IANA zone to format in: undefined means the machine's own. */
  get timeZone(): string | undefined {
    return this.display.timeZone === 'utc' ? 'UTC' : undefined
  }

  /** "UTC" or "local", for labels beside times. */
  get timeZoneLabel(): string {
    return this.display.timeZone === 'utc' ? 'UTC' : 'local time'
  }

  /** A reliabilityScore as reported, on the 0–100 scale the thresholds use. */
  reliability100(score: number): number {
    return this.units.reliabilityScale.value === '0-1' ? score * 100 : score
  }

  health(score: number | null): Health | 'unknown' {
    if (score === null || !Number.isFinite(score)) return 'unknown'
    const value = this.reliability100(score)
    if (value < this.thresholds.critical) return 'critical'
    if (value < this.thresholds.warning) return 'warning'
    return 'good'
  }

  /** Reliability on the 0–100 scale, one decimal. */
  formatReliability(score: number | null): string {
    return score === null || !Number.isFinite(score) ? '—' : this.reliability100(score).toFixed(1)
  }

  /** A traffic total in the unit in use, shown in decimal bytes (kB, MB, GB…). */
  trafficBytes(value: number): number {
    return value * TRAFFIC_TO_BYTES[this.units.trafficUnit.value]
  }

  formatTraffic(value: number | null): string {
    return value === null ? '—' : formatBytes(this.trafficBytes(value))
  }

  /** A viewer's viewingTime / rebufferingTime, in seconds whatever unit the service used. */
  viewerSeconds(value: number): number {
    return this.units.viewerTimeUnit.value === 'milliseconds' ? value / 1000 : value
  }

  formatViewerTime(value: number | null): string {
    if (value === null || !Number.isFinite(value)) return '—'
    const seconds = Math.round(this.viewerSeconds(value))
    if (seconds < 60) return `${seconds} s`
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`
    return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`
  }

  /** HH:MM:SS in the chosen zone. */
  formatTime(at: string | number | null): string {
    const ms = toMs(at)
    return ms === null ? '—' : formatter('time', this.timeZone).format(ms)
  }

  /** "21 Nov 2026, 14:05" in the chosen zone. */
  formatDateTime(at: string | number | null): string {
    const ms = toMs(at)
    return ms === null ? '—' : formatter('dateTime', this.timeZone).format(ms)
  }
}

export const display = new DisplayStore()
