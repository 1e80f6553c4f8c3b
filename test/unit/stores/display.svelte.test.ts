// display.svelte.ts: times as every screen shows them. Issue 14: the viewer table's Started
// column showed a time without a date, so yesterday's 14:05 read as today's.
import { describe, expect, it } from 'vitest'
import { DisplayStore } from '../../../src/renderer/src/lib/stores/display.svelte'
import { DEFAULT_DISPLAY } from '../../../src/shared/settings'

function inUtc(): DisplayStore {
  const store = new DisplayStore()
  store.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
  return store
}

const NOW = Date.parse('2026-11-24T10:00:00Z')

describe('DisplayStore.formatMoment', () => {
  it('is the time alone on the same day, with the day and month on another, and the year in another year', () => {
    const display = inUtc()
    expect(display.formatMoment('2026-11-24T00:00:05Z', NOW)).toBe('00:00:05')
    expect(display.formatMoment('2026-11-23T23:59:59Z', NOW)).toBe('23 Nov 23:59:59')
    expect(display.formatMoment('2025-12-31T08:15:00Z', NOW)).toBe('31 Dec 2025 08:15:00')
    expect(display.formatMoment(null, NOW)).toBe('—')
  })
})
