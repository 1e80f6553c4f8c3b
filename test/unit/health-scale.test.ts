// A connection's reliability scale (decideScale) and the one place a score is put on 0–100
// (toHundred), as tables: every branch, with the words Settings shows.
import { describe, expect, it } from 'vitest'
import { decideScale, toHundred, type ScaleDecision, type ScoreStats } from '../../src/main/core/health/scale'
import type { ReliabilityScale, ReliabilityScaleSetting } from '../../src/shared/reliability'

describe('decideScale', () => {
  const set = (value: ReliabilityScale): ScaleDecision => ({ value, source: 'setting', reason: 'set for this connection' })
  const assumed: ScaleDecision = { value: '0-100', source: 'default', reason: 'no sessions cached for this connection yet; assumed 0–100' }
  const unit = (sessions: string): ScaleDecision => ({
    value: '0-1',
    source: 'detected',
    reason: `every reliabilityScore this connection reported is between 0 and 1 (${sessions})`
  })
  const hundred = (highest: string): ScaleDecision => ({
    value: '0-100',
    source: 'detected',
    reason: `this connection reports reliabilityScore values above 1 (${highest})`
  })
  const cases: [string, ReliabilityScaleSetting, ScoreStats, ScaleDecision][] = [
    ['a setting of 0–1 wins over 0–100 data', '0-1', { count: 5, max: 98.5 }, set('0-1')],
    ['a setting of 0–100 wins over 0–1 data', '0-100', { count: 5, max: 0.99 }, set('0-100')],
    ['a setting holds with nothing cached', '0-1', { count: 0, max: null }, set('0-1')],
    ['auto with nothing cached assumes 0–100 and says so', 'auto', { count: 0, max: null }, assumed],
    ['auto with sessions but no score is the same assumption', 'auto', { count: 3, max: null }, assumed],
    ['auto with every score at most 1 is 0–1 (one session)', 'auto', { count: 1, max: 0.985 }, unit('1 session')],
    ['auto with a perfect 1 is still 0–1 (sessions counted)', 'auto', { count: 12, max: 1 }, unit('12 sessions')],
    ['auto with a score above 1 is 0–100, naming the highest', 'auto', { count: 2, max: 97.46 }, hundred('highest 97.5, 2 sessions')],
    ['auto with a score just above 1 is 0–100', 'auto', { count: 1, max: 1.5 }, hundred('highest 1.5, 1 session')]
  ]
  it.each(cases)('%s', (_what, setting, stats, expected) => {
    expect(decideScale(setting, stats)).toEqual(expected)
  })
})

describe('toHundred', () => {
  const cases: [string, number | null | undefined, ReliabilityScale, number | null][] = [
    ['0–1 is multiplied by 100', 0.97, '0-1', 97],
    ['0–1 zero stays zero', 0, '0-1', 0],
    ['0–1 one is 100', 1, '0-1', 100],
    ['0–100 stands as it is', 97.5, '0-100', 97.5],
    ['0–100 zero stays zero', 0, '0-100', 0],
    ['null is no score', null, '0-1', null],
    ['undefined is no score', undefined, '0-100', null],
    ['NaN is no score', Number.NaN, '0-1', null],
    ['Infinity is no score', Number.POSITIVE_INFINITY, '0-100', null]
  ]
  it.each(cases)('%s', (_what, score, scale, expected) => {
    const got = toHundred(score, scale)
    if (expected === null) expect(got).toBeNull()
    else expect(got).toBeCloseTo(expected, 10)
  })
})
