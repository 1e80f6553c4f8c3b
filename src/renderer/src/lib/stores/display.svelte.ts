// How every screen shows numbers and times: the operator's display settings and the units in use
// (set, or detected from the data: the API does not say). One store, loaded from getSettings and
// replaced by every settingsChanged push (a save in any window), so every screen agrees.
// Reliability is not here: the core hands every score out on 0–100 with its health decided.
import { soundChoiceOf, type AlertSoundChoice } from '../../../../shared/alert-sound'
import { formatBytes } from '../../../../shared/format'
import { formatter } from '../date-format'
import { theme } from './theme.svelte'
import { DEFAULT_DISPLAY, type AppSettings, type DisplaySettings, type ResolvedUnits } from '../../../../shared/settings'

const FALLBACK_UNITS: ResolvedUnits = {
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
  units = $state<ResolvedUnits>(FALLBACK_UNITS)

  /** Takes settings as getSettings, saveSettings or settingsChanged gave them, and applies the theme. */
  apply(settings: AppSettings): void {
    this.display = settings.display
    this.units = settings.units
    theme.choose(settings.display.theme)
  }

  /** Which severities' alerts come with a sound (Settings → Display). */
  get alertSounds(): AlertSoundChoice {
    return soundChoiceOf(this.display)
  }

  /** The IANA zone to format in: undefined means the machine's own. */
  get timeZone(): string | undefined {
    return this.display.timeZone === 'utc' ? 'UTC' : undefined
  }

  /** "UTC" or "local", for labels beside times. */
  get timeZoneLabel(): string {
    return this.display.timeZone === 'utc' ? 'UTC' : 'local time'
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

  /** HH:MM:SS on the same day as `now` in the chosen zone; "22 Nov 14:05:09" on another day of
   *  the year, with the year before that. A time alone would pass yesterday's 14:05 off as today's. */
  formatMoment(at: string | number | null, now: number = Date.now()): string {
    const ms = toMs(at)
    if (ms === null) return '—'
    const day = formatter('day', this.timeZone)
    const [date, today] = [day.format(ms), day.format(now)]
    if (date === today) return this.formatTime(ms)
    const sameYear = date.slice(-4) === today.slice(-4)
    const time = this.formatTime(ms)
    return sameYear ? `${formatter('dayMonth', this.timeZone).format(ms)} ${time}` : `${this.formatDateTime(ms).replace(/, \d\d:\d\d$/, '')} ${time}`
  }

  /** "21 Nov 2026, 14:05" in the chosen zone. */
  formatDateTime(at: string | number | null): string {
    const ms = toMs(at)
    return ms === null ? '—' : formatter('dateTime', this.timeZone).format(ms)
  }
}

export const display = new DisplayStore()
