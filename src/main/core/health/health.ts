// Health, decided once: a score on 0–100 against the levels that apply to its session (the
// session's own override, else the settings'). Every face shows this verdict; none recomputes it.
import type { EffectiveLevels, Health } from '../../../shared/reliability'
import type { ReliabilityThresholds } from '../../../shared/settings'

export function effectiveLevels(override: ReliabilityThresholds | null, settings: ReliabilityThresholds): EffectiveLevels {
  return override
    ? { warning: override.warning, critical: override.critical, source: 'session' }
    : { warning: settings.warning, critical: settings.critical, source: 'settings' }
}

/** good at or above the warning level, warning below it, critical below the critical level. */
export function healthOf(score: number | null, levels: Pick<EffectiveLevels, 'warning' | 'critical'>): Health {
  if (score === null || !Number.isFinite(score)) return 'unknown'
  if (score < levels.critical) return 'critical'
  if (score < levels.warning) return 'warning'
  return 'good'
}
