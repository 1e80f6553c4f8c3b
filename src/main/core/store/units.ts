// The viewer units the API does not state, resolved for the screens: the operator's setting,
// else what the cached data shows, else a stated default. Each comes with the reason, which the
// Settings screen shows. (The reliability scale is each connection's: reliability-scales.ts.)
import type { DisplaySettings, ResolvedUnits } from '../../../shared/settings'
import type { Db } from './db'
import { viewerUnitSample, type ViewerSample } from './viewers'

type Resolved<T> = { value: T; source: 'setting' | 'detected' | 'default'; reason: string }

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

function viewerTimeUnit(sample: ViewerSample[], setting: DisplaySettings['viewerTimeUnit']): Resolved<'seconds' | 'milliseconds'> {
  if (setting !== 'auto') return { value: setting, source: 'setting', reason: 'set in Settings' }
  if (sample.length === 0) return { value: 'seconds', source: 'default', reason: 'no ended viewers cached yet; assumed seconds' }
  // A viewer cannot watch for longer than it was connected: compare viewingTime with the span
  // from startedAt to endedAt.
  const ratio = median(sample.map((s) => s.viewing / s.spanMs))
  if (ratio > 0.02 && ratio <= 1.5) {
    return { value: 'milliseconds', source: 'detected', reason: 'viewingTime matches the time between startedAt and endedAt in milliseconds' }
  }
  if (ratio <= 0.0015) {
    return { value: 'seconds', source: 'detected', reason: 'viewingTime matches the time between startedAt and endedAt in seconds' }
  }
  return { value: 'seconds', source: 'default', reason: 'viewingTime does not match connection times; assumed seconds' }
}

function trafficUnit(
  sample: ViewerSample[],
  time: Resolved<'seconds' | 'milliseconds'>,
  setting: DisplaySettings['trafficUnit']
): Resolved<'bytes' | 'kilobytes' | 'megabytes'> {
  if (setting !== 'auto') return { value: setting, source: 'setting', reason: 'set in Settings' }
  const rated = sample.filter((s) => s.traffic > 0)
  if (rated.length === 0) return { value: 'bytes', source: 'default', reason: 'no viewer traffic cached yet; assumed bytes' }
  // Streaming video runs at roughly 30 kB/s to 3 MB/s per viewer: the unit that puts the median
  // rate in that range is the likely one.
  const perSecond = median(rated.map((s) => s.traffic / (time.value === 'milliseconds' ? s.viewing / 1000 : s.viewing)))
  if (perSecond >= 3e4) return { value: 'bytes', source: 'detected', reason: 'viewer traffic per second of viewing is a plausible video bitrate in bytes' }
  if (perSecond >= 30) return { value: 'kilobytes', source: 'detected', reason: 'viewer traffic per second of viewing is a plausible video bitrate in kilobytes' }
  if (perSecond >= 0.03) return { value: 'megabytes', source: 'detected', reason: 'viewer traffic per second of viewing is a plausible video bitrate in megabytes' }
  return { value: 'bytes', source: 'default', reason: 'viewer traffic is too small to tell; assumed bytes' }
}

/** Whether `display` leaves a unit to be detected from a sample of the cached viewers. */
export function detectsUnits(display: DisplaySettings): boolean {
  return display.viewerTimeUnit === 'auto' || display.trafficUnit === 'auto'
}

export function resolveUnits(db: Db, display: DisplaySettings): ResolvedUnits {
  return unitsOf(display, detectsUnits(display) ? viewerUnitSample(db) : [])
}

/** The units `display` and a sample of the cached viewers (empty unless `detectsUnits`) resolve to. */
export function unitsOf(display: DisplaySettings, sample: ViewerSample[]): ResolvedUnits {
  const time = viewerTimeUnit(sample, display.viewerTimeUnit)
  return {
    trafficUnit: trafficUnit(sample, time, display.trafficUnit),
    viewerTimeUnit: time
  }
}
