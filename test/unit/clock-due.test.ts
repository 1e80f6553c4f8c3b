// What time alone makes due between polls (alerts/clock-due.ts), as a table: the blind alert's
// minutes passing (or its rule switched off), a snooze running out — and, while blind, only the
// blind alert's own snooze, as the engine holds the sessions' alerts while it cannot see them.
import { describe, expect, it } from 'vitest'
import { dueByClock, type ClockFacts } from '../../src/main/core/alerts/clock-due'
import { DEFAULT_ALERT_RULES, type AlertRules } from '../../src/shared/alerts'

const NOW = 1_000_000_000
const MINUTE = 60_000
const blindAfter = DEFAULT_ALERT_RULES.monitorBlind.minutes * MINUTE
const rulesWithBlind = (enabled: boolean): AlertRules => ({ ...DEFAULT_ALERT_RULES, monitorBlind: { ...DEFAULT_ALERT_RULES.monitorBlind, enabled } })
const facts = (overrides: Partial<ClockFacts>): ClockFacts => ({ now: NOW, rules: DEFAULT_ALERT_RULES, lastSuccessAt: NOW - MINUTE / 2, open: [], ...overrides })
const blindAlert = { rule: 'monitor-blind' as const, state: 'firing' as const, snoozedUntil: null }
const snoozed = (until: number, rule: 'reliability-below' | 'monitor-blind' = 'reliability-below') => ({ rule, state: 'snoozed' as const, snoozedUntil: until })

describe('due by the clock', () => {
  it.each([
    ['nothing open, polled just now', facts({}), false],
    ['no poll for the rule’s minutes: the blind alert is due', facts({ lastSuccessAt: NOW - blindAfter - 1 }), true],
    ['blind, its alert already open', facts({ lastSuccessAt: NOW - blindAfter - 1, open: [blindAlert] }), false],
    ['a blind alert open, though polled just now', facts({ open: [blindAlert] }), true],
    ['a blind alert open, its rule switched off', facts({ rules: rulesWithBlind(false), lastSuccessAt: NOW - blindAfter - 1, open: [blindAlert] }), true],
    ['blind but the rule is off, nothing open', facts({ rules: rulesWithBlind(false), lastSuccessAt: NOW - blindAfter - 1 }), false],
    ['a snooze still running', facts({ open: [snoozed(NOW + 1)] }), false],
    ['a snooze run out', facts({ open: [snoozed(NOW)] }), true],
    ['a snooze until the session ends', facts({ open: [{ rule: 'reliability-below', state: 'snoozed', snoozedUntil: null }] }), false],
    ['a session’s snooze run out while blind: held', facts({ lastSuccessAt: NOW - blindAfter - 1, open: [blindAlert, snoozed(NOW - 1)] }), false],
    ['the blind alert’s own snooze run out', facts({ lastSuccessAt: NOW - blindAfter - 1, open: [snoozed(NOW - 1, 'monitor-blind')] }), true]
  ])('%s', (_case, input, due) => {
    expect(dueByClock(input)).toBe(due)
  })
})
