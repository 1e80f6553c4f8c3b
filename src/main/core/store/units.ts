// The units the API does not state, resolved for the screens: the operator's setting, else what
// the cached data shows, else a stated default. Each comes with the reason, which the Settings
// screen shows ("detected: every reliabilityScore cached is between 0 and 1").
import type { DisplaySettings, ResolvedUnits } from '../../../shared/settings'
import type { Db } from './db'
import { statement } from './statements'

type Resolved<T> = { value: T; source: 'setting' | 'detected' | 'default'; reason: string }

/** Viewers sampled for the time and traffic units: enough to be sure, cheap at any cache size. */
const SAMPLE = 500

export function reliabilityScale(db: Db, setting: DisplaySettings['reliabilityScale']): Resolved<'0-1' | '0-100'> {
  if (setting !== 'auto') return { value: setting, source: 'setting', reason: 'set in Settings' }
  const { max, n } = statement(db, 'SELECT MAX(reliability_score) AS max, COUNT(*) AS n FROM sessions').get() as {
    max: number | null
    n: number
  }
  if (n === 0 || max === null) return { value: '0-100', source: 'default', reason: 'no sessions cached yet; assumed 0–100' }
  if (max <= 1) return { value: '0-1', source: 'detected', reason: `every session's reliabilityScore cached is between 0 and 1 (${n} sessions)` }
  return { value: '0-100', source: 'detected', reason: 'sessions report reliabilityScore values above 1' }
}

interface ViewerSample {
  viewing: number
  spanMs: number
  traffic: number
}

function viewerSample(db: Db): ViewerSample[] {
  return statement(
    db,
    `SELECT viewing_time AS viewing, ended_at - started_at AS spanMs, COALESCE(cdn_traffic, 0) + COALESCE(ecdn_traffic, 0) AS traffic
     FROM viewers
     WHERE viewing_time > 0 AND started_at IS NOT NULL AND ended_at > started_at
     LIMIT ${SAMPLE}`
  ).all() as ViewerSample[]
}

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

export function resolveUnits(db: Db, display: DisplaySettings): ResolvedUnits {
  const sample = display.viewerTimeUnit === 'auto' || display.trafficUnit === 'auto' ? viewerSample(db) : []
  const time = viewerTimeUnit(sample, display.viewerTimeUnit)
  return {
    reliabilityScale: reliabilityScale(db, display.reliabilityScale),
    trafficUnit: trafficUnit(sample, time, display.trafficUnit),
    viewerTimeUnit: time
  }
}
