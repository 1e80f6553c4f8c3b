// Repeats of unacknowledged criticals (issue 16): on each alert's own grid from when it fired,
// never all at once after a restart, forgotten once acknowledged (a new grid if it fires again).
import { describe, expect, it } from 'vitest'
import { CriticalRepeats } from '../../src/main/core/alerts/repeat'
import { pageSoundFor, planNotification } from '../../src/renderer/src/lib/notify'
import { alert, change, situation } from './desktop/alert-fixtures'

const MIN = 60_000

describe('critical repeats', () => {
  it('repeats every period from when it fired, once per period', async () => {
    const repeats = new CriticalRepeats()
    const firing = [{ id: 1, firedAt: 0 }]
    expect(await repeats.due(firing, 15 * MIN, 1 * MIN)).toEqual([])
    expect(await repeats.due(firing, 15 * MIN, 14 * MIN)).toEqual([])
    expect(await repeats.due(firing, 15 * MIN, 15 * MIN)).toEqual([1])
    expect(await repeats.due(firing, 15 * MIN, 16 * MIN)).toEqual([])
    expect(await repeats.due(firing, 15 * MIN, 31 * MIN)).toEqual([1])
  })

  it('after a restart, waits for the next step rather than repeating at once', async () => {
    const repeats = new CriticalRepeats()
    expect(await repeats.due([{ id: 7, firedAt: 0 }], 10 * MIN, 55 * MIN)).toEqual([])
    expect(await repeats.due([{ id: 7, firedAt: 0 }], 10 * MIN, 59 * MIN)).toEqual([])
    expect(await repeats.due([{ id: 7, firedAt: 0 }], 10 * MIN, 60 * MIN)).toEqual([7])
  })

  it('forgets an alert no longer firing unacknowledged', async () => {
    const repeats = new CriticalRepeats()
    await repeats.due([{ id: 1, firedAt: 0 }, { id: 2, firedAt: 0 }], 5 * MIN, 0)
    // 1 acknowledged: gone from the firing list; 2 repeats alone.
    expect(await repeats.due([{ id: 2, firedAt: 0 }], 5 * MIN, 5 * MIN)).toEqual([2])
    // 1 fires again later (worse): it starts a new grid, not an immediate repeat.
    expect(await repeats.due([{ id: 1, firedAt: 0 }, { id: 2, firedAt: 0 }], 5 * MIN, 7 * MIN)).toEqual([])
  })
})

describe('the browser host: a repeat', () => {
  const NOW = Date.parse('2026-11-25T10:00:00Z')
  const ctx = { now: NOW, desktop: false, permission: 'granted' as const, pageHidden: false, sound: { critical: true, warning: false } }
  const soundOff = { critical: false, warning: true }

  it('is a notification saying it still fires, not acknowledged', () => {
    const plan = planNotification(change({ situation: situation({}), repeated: [alert({ id: 4 })] }), ctx)
    expect(plan?.title).toMatch(/Town Hall$/)
    expect(plan?.body).toMatch(/^Still firing, not acknowledged — /)
    expect(plan?.silent).toBe(false)
    expect(planNotification(change({ situation: situation({}), repeated: [alert({ id: 4 })] }), { ...ctx, sound: soundOff })?.silent).toBe(true)
  })

  it("plays the critical's sound for a repeat, unless its sound is off, in the desktop window or while notifications are paused", () => {
    const repeated = change({ situation: situation({}), repeated: [alert({ id: 4 })] })
    expect(pageSoundFor(repeated, ctx)).toBe('critical')
    expect(pageSoundFor(repeated, { ...ctx, sound: soundOff })).toBe(null)
    expect(pageSoundFor(repeated, { ...ctx, desktop: true })).toBe(null)
    expect(pageSoundFor(change({ situation: situation({}) }), ctx)).toBe(null)
    const paused = change({ situation: situation({ notificationsPausedUntil: NOW + MIN }), repeated: [alert({ id: 4 })] })
    expect(pageSoundFor(paused, ctx)).toBe(null)
  })
})
