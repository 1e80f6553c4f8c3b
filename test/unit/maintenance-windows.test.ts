// Maintenance windows' recurrence and scope, by table (issue 16).
import { describe, expect, it } from 'vitest'
import { covers, inForce, silencingWindow } from '../../src/main/core/alerts/maintenance'
import type { MaintenanceRecord } from '../../src/main/core/store/maintenance'
import { MaintenanceInputSchema } from '../../src/shared/maintenance'

const H = 3_600_000
const D = 24 * H
const T = Date.parse('2026-11-23T22:00:00Z') // a Monday, 22:00

const w = (over: Partial<MaintenanceRecord> = {}): MaintenanceRecord => ({
  id: 1, name: 'Patch night', startsAt: T, endsAt: T + 2 * H, repeat: 'none', connectionId: null, connectionName: null, contentId: null, eventSessionId: null, createdBy: null, ...over
})

describe('in force', () => {
  it.each([
    ['once, before', w(), T - 1, false],
    ['once, at the start', w(), T, true],
    ['once, inside', w(), T + H, true],
    ['once, at the end', w(), T + 2 * H, false],
    ['once, a day later', w(), T + D + H, false],
    ['daily, the next day inside', w({ repeat: 'daily' }), T + D + H, true],
    ['daily, the next day outside', w({ repeat: 'daily' }), T + D + 3 * H, false],
    ['weekly, six days later', w({ repeat: 'weekly' }), T + 6 * D + H, false],
    ['weekly, a week later', w({ repeat: 'weekly' }), T + 7 * D + H, true],
    ['daily, before it ever began', w({ repeat: 'daily' }), T - D + H, false]
  ])('%s', (_what, window, now, expected) => {
    expect(inForce(window, now)).toBe(expected)
  })
})

describe('scope', () => {
  const alert = { connectionId: 'c1', eventSessionId: 's1' }
  it('everything, a connection, a content id, a session', () => {
    expect(covers(w(), alert, () => null)).toBe(true)
    expect(covers(w({ connectionId: 'c2' }), alert, () => null)).toBe(false)
    expect(covers(w({ connectionId: 'c1' }), alert, () => null)).toBe(true)
    expect(covers(w({ connectionId: 'c1', contentId: 'town-hall' }), alert, () => 'town-hall')).toBe(true)
    expect(covers(w({ connectionId: 'c1', contentId: 'town-hall' }), alert, () => 'other')).toBe(false)
    expect(covers(w({ connectionId: 'c1', eventSessionId: 's2' }), alert, () => null)).toBe(false)
    // A connection-wide alert (monitor blind) is covered by its connection, not by a session's window.
    expect(covers(w({ connectionId: 'c1', eventSessionId: 's1' }), { connectionId: 'c1', eventSessionId: null }, () => null)).toBe(false)
  })

  it('names the first window in force that covers the alert', () => {
    const windows = [w({ id: 1, name: 'Later', startsAt: T + 5 * H, endsAt: T + 6 * H }), w({ id: 2, name: 'Patch night', connectionId: 'c1' })]
    expect(silencingWindow(windows, alert, T + H, () => null)).toBe('Patch night')
    expect(silencingWindow(windows, alert, T + 3 * H, () => null)).toBeNull()
  })
})

describe('input', () => {
  it('refuses an end before the start, a daily window of a day or more, and a session without its connection', () => {
    const base = { name: 'x', startsAt: '2026-11-23T22:00:00Z', endsAt: '2026-11-24T00:00:00Z' }
    expect(MaintenanceInputSchema.safeParse(base).success).toBe(true)
    expect(MaintenanceInputSchema.safeParse({ ...base, endsAt: '2026-11-23T21:00:00Z' }).error?.issues[0]?.message).toBe('must be after the start')
    expect(MaintenanceInputSchema.safeParse({ ...base, endsAt: '2026-11-25T00:00:00Z', repeat: 'daily' }).error?.issues[0]?.message).toBe('a daily window must be shorter than a day')
    expect(MaintenanceInputSchema.safeParse({ ...base, eventSessionId: 's1' }).error?.issues[0]?.path).toEqual(['connectionId'])
  })
})
