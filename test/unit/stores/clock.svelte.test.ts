// clock.svelte.ts: one shared "now" that ticks every second, so ages update without new data.
import { afterAll, describe, expect, it, vi } from 'vitest'
import { effectRuns } from './effects.svelte'

// The module's single instance starts its interval on import: import it under fake timers.
// (Once per file: a re-import after vi.resetModules would bring its own Svelte runtime, which
// the effects below could not track.)
const START = Date.parse('2026-11-14T09:00:00.000Z')
vi.useFakeTimers({ now: START })
const { clock } = await import('../../../src/renderer/src/lib/stores/clock.svelte')
const nowAtImport = clock.now

afterAll(() => {
  vi.useRealTimers()
})

describe('clock', () => {
  it('starts at the time of import', () => {
    expect(nowAtImport).toBe(START)
  })

  it('follows the system clock once a second, and holds still between ticks', () => {
    const before = clock.now
    vi.advanceTimersByTime(999)
    expect(clock.now).toBe(before)
    vi.advanceTimersByTime(1)
    expect(clock.now).toBe(before + 1000)
    vi.advanceTimersByTime(5000)
    expect(clock.now).toBe(before + 6000)
    expect(clock.now).toBe(Date.now())
  })

  it('each tick re-runs what reads now', () => {
    const first = clock.now
    const tick = () => vi.advanceTimersByTime(1000)
    expect(effectRuns(() => clock.now, [tick, tick])).toEqual([first, first + 1000, first + 2000])
  })
})
