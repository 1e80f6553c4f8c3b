// Health decided once: the levels that apply to a session (effectiveLevels) and its verdict under
// them (healthOf), as tables.
import { describe, expect, it } from 'vitest'
import { effectiveLevels, healthOf } from '../../src/main/core/health/health'
import type { EffectiveLevels, Health } from '../../src/shared/reliability'
import type { ReliabilityThresholds } from '../../src/shared/settings'

const SETTINGS: ReliabilityThresholds = { warning: 95, critical: 90 }

describe('effectiveLevels', () => {
  const cases: [string, ReliabilityThresholds | null, EffectiveLevels][] = [
    ['no override: the settings\' levels', null, { warning: 95, critical: 90, source: 'settings' }],
    ['an override: the session\'s own', { warning: 80, critical: 70 }, { warning: 80, critical: 70, source: 'session' }],
    ['an override stricter than the settings', { warning: 99, critical: 97 }, { warning: 99, critical: 97, source: 'session' }]
  ]
  it.each(cases)('%s', (_what, override, expected) => {
    expect(effectiveLevels(override, SETTINGS)).toEqual(expected)
  })
})

describe('healthOf', () => {
  const own = { warning: 80, critical: 70 }
  const cases: [string, number | null, Pick<EffectiveLevels, 'warning' | 'critical'>, Health][] = [
    ['well above the warning level', 99, SETTINGS, 'good'],
    ['exactly at the warning level is good', 95, SETTINGS, 'good'],
    ['just below the warning level', 94.9, SETTINGS, 'warning'],
    ['exactly at the critical level is a warning', 90, SETTINGS, 'warning'],
    ['just below the critical level', 89.9, SETTINGS, 'critical'],
    ['zero', 0, SETTINGS, 'critical'],
    ['no score', null, SETTINGS, 'unknown'],
    ['NaN', Number.NaN, SETTINGS, 'unknown'],
    ['Infinity', Number.POSITIVE_INFINITY, SETTINGS, 'unknown'],
    // A session with its own levels: the same score reads differently.
    ['92 under the settings', 92, SETTINGS, 'warning'],
    ['92 under its own lower levels', 92, own, 'good'],
    ['75 under its own levels', 75, own, 'warning'],
    ['65 under its own levels', 65, own, 'critical']
  ]
  it.each(cases)('%s', (_what, score, levels, expected) => {
    expect(healthOf(score, levels)).toBe(expected)
  })
})
