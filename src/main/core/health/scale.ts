// A connection's reliability scale: the operator's setting, else what its own cached scores
// show, else a stated assumption, each with the reason Settings shows. Pure: a table test
// covers every branch (test/unit/health-scale.test.ts).
import type { ReliabilityScale, ReliabilityScaleSetting } from '../../../shared/reliability'

export interface ScaleDecision {
  value: ReliabilityScale
  source: 'setting' | 'detected' | 'default'
  reason: string
}

/** What one connection's cached sessions say: how many have a score, and the highest. */
export interface ScoreStats {
  count: number
  max: number | null
}

export function decideScale(setting: ReliabilityScaleSetting, stats: ScoreStats): ScaleDecision {
  if (setting !== 'auto') return { value: setting, source: 'setting', reason: 'set for this connection' }
  if (stats.count === 0 || stats.max === null) {
    return { value: '0-100', source: 'default', reason: 'no sessions cached for this connection yet; assumed 0–100' }
  }
  const sessions = `${stats.count} session${stats.count === 1 ? '' : 's'}`
  if (stats.max <= 1) {
    return { value: '0-1', source: 'detected', reason: `every reliabilityScore this connection reported is between 0 and 1 (${sessions})` }
  }
  return { value: '0-100', source: 'detected', reason: `this connection reports reliabilityScore values above 1 (highest ${round(stats.max)}, ${sessions})` }
}

/** A score as the service reported it, on Eventwatch's 0–100 scale; null when it is no number. */
export function toHundred(score: number | null | undefined, scale: ReliabilityScale): number | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null
  return scale === '0-1' ? score * 100 : score
}

const round = (n: number): string => (Math.round(n * 10) / 10).toString()
