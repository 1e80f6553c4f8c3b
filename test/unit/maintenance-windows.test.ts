// Maintenance windows' recurrence and scope, by table (issue 16), across daylight saving in a
// named zone (issue 23), and how the header names the windows in force.
import { describe, expect, it } from 'vitest'
import { covers, inForce, silencingWindow, windowsNamed } from '../../src/main/core/alerts/maintenance'
import { decideSituation } from '../../src/main/core/alerts/situation'
import type { MaintenanceRecord } from '../../src/main/core/store/maintenance'
import { broadReasons, broadWhy, MaintenanceInputSchema } from '../../src/shared/maintenance'
import { plainText } from '../../src/shared/plain-text'

const H = 3_600_000
const D = 24 * H
const T = Date.parse('2026-11-23T22:00:00Z') // a Monday, 22:00

const w = (over: Partial<MaintenanceRecord> = {}): MaintenanceRecord => ({
  id: 1, name: 'Patch night', startsAt: T, endsAt: T + 2 * H, repeat: 'none', timeZone: 'UTC', connectionId: null, connectionName: null, contentId: null, eventSessionId: null, createdBy: null, ...over
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

// Europe/Berlin in 2026: the clocks jump from 02:00 CET to 03:00 CEST on Sunday 29 March and go
// back from 03:00 CEST to 02:00 CET on Sunday 25 October (both at 01:00 UTC).
const berlin = (startsAt: string, endsAt: string, repeat: MaintenanceRecord['repeat']): MaintenanceRecord =>
  w({ startsAt: Date.parse(startsAt), endsAt: Date.parse(endsAt), repeat, timeZone: 'Europe/Berlin' })
const at = (iso: string): number => Date.parse(iso)

describe('in force across daylight saving, Europe/Berlin', () => {
  // Saturday 22:00–23:00 Berlin, made in March (winter time).
  const saturday = berlin('2026-03-21T22:00:00+01:00', '2026-03-21T23:00:00+01:00', 'weekly')
  const nightly = berlin('2026-03-27T22:00:00+01:00', '2026-03-27T23:00:00+01:00', 'daily')
  const autumnSaturday = berlin('2026-10-17T22:00:00+02:00', '2026-10-17T23:00:00+02:00', 'weekly')
  const autumnNightly = berlin('2026-10-20T22:00:00+02:00', '2026-10-20T23:00:00+02:00', 'daily')
  // 02:30–03:30 every night: on 29 March 02:30 is skipped; on 25 October it happens twice.
  const skipped = berlin('2026-03-27T02:30:00+01:00', '2026-03-27T03:30:00+01:00', 'daily')
  const twice = berlin('2026-10-20T02:30:00+02:00', '2026-10-20T03:00:00+02:00', 'daily')

  it.each([
    ['weekly, the first Saturday, 22:30 CET', saturday, '2026-03-21T22:30:00+01:00', true],
    ['weekly, the Saturday before the change, 22:30 CET', saturday, '2026-03-28T22:30:00+01:00', true],
    ['weekly, the Saturday after the change, 22:30 CEST', saturday, '2026-04-04T22:30:00+02:00', true],
    ['weekly, after the change, not at 23:30 CEST (fixed weeks of 168 h would be)', saturday, '2026-04-04T23:30:00+02:00', false],
    ['weekly, after the change, not at 21:59 CEST', saturday, '2026-04-04T21:59:00+02:00', false],
    ['weekly, in summer, 22:30 CEST', saturday, '2026-07-18T22:30:00+02:00', true],
    ['weekly, the Saturday before going back, 22:30 CEST', autumnSaturday, '2026-10-24T22:30:00+02:00', true],
    ['weekly, the Saturday after going back, 22:30 CET', autumnSaturday, '2026-10-31T22:30:00+01:00', true],
    ['weekly, after going back, not at 21:30 CET', autumnSaturday, '2026-10-31T21:30:00+01:00', false],
    ['weekly, a week made in March, in November at 22:30 CET', saturday, '2026-11-07T22:30:00+01:00', true],
    ['daily, the night before the jump, 22:30 CET', nightly, '2026-03-28T22:30:00+01:00', true],
    ['daily, the night of the jump, 22:30 CEST', nightly, '2026-03-29T22:30:00+02:00', true],
    ['daily, the night of the jump, not at 23:30 CEST', nightly, '2026-03-29T23:30:00+02:00', false],
    ['daily, the night after going back, 22:30 CET', autumnNightly, '2026-10-25T22:30:00+01:00', true],
    ['daily, the night after going back, not at 21:30 CET', autumnNightly, '2026-10-25T21:30:00+01:00', false],
    ['skipped start: the night before, 02:30 CET', skipped, '2026-03-28T02:30:00+01:00', true],
    ['skipped start: 02:30 does not exist, so not at 03:29 CEST', skipped, '2026-03-29T03:29:00+02:00', false],
    ['skipped start: begins at 03:30 CEST, an hour late', skipped, '2026-03-29T03:30:00+02:00', true],
    ['skipped start: lasts its hour, to 04:30 CEST', skipped, '2026-03-29T04:29:00+02:00', true],
    ['skipped start: over at 04:30 CEST', skipped, '2026-03-29T04:30:00+02:00', false],
    ['skipped start: the next night at 02:30 CEST again', skipped, '2026-03-30T02:30:00+02:00', true],
    ['twice: the first 02:45 (CEST) is inside', twice, '2026-10-25T02:45:00+02:00', true],
    ['twice: the second 02:45 (CET) is not', twice, '2026-10-25T02:45:00+01:00', false],
    ['twice: the next night at 02:45 CET', twice, '2026-10-26T02:45:00+01:00', true]
  ])('%s', (_what, window, now, expected) => {
    expect(inForce(window, at(now))).toBe(expected)
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

  it('refuses a time without an offset, and a zone that is not an IANA name', () => {
    const base = { name: 'x', startsAt: '2026-11-23T22:00:00+01:00', endsAt: '2026-11-24T00:00:00+01:00' }
    expect(MaintenanceInputSchema.safeParse({ ...base, timeZone: 'Europe/Berlin' }).success).toBe(true)
    const bare = MaintenanceInputSchema.safeParse({ ...base, startsAt: '2026-11-23T22:00' }).error?.issues[0]
    expect(bare?.path).toEqual(['startsAt'])
    expect(bare?.message).toMatch(/^needs a date, a time and an offset/)
    for (const timeZone of ['Mars/Olympus', '+01:00', 'CEST', '']) {
      expect(MaintenanceInputSchema.safeParse({ ...base, timeZone }).error?.issues[0], timeZone).toMatchObject({
        path: ['timeZone'],
        message: 'is not an IANA time zone name known here (such as Europe/Berlin or UTC)'
      })
    }
  })

  it('calls a window broad when it covers everything or lasts more than 7 days, and says why', () => {
    expect(broadReasons({ startsAt: T, endsAt: T + H, connectionId: 'c1' })).toEqual([])
    expect(broadReasons({ startsAt: T, endsAt: T + 7 * D, connectionId: 'c1' })).toEqual([])
    expect(broadReasons({ startsAt: T, endsAt: T + 7 * D + 1, connectionId: 'c1' })).toEqual(['long'])
    expect(broadReasons({ startsAt: T, endsAt: T + H })).toEqual(['everything'])
    expect(broadWhy(['everything', 'long'], 11.5 * D)).toBe(
      'it covers everything (no connection, content or session chosen), so no alert of any connection would be notified or sent to a webhook while it is in force; ' +
        'and it lasts 12 days, more than 7, so the alerts it covers would go unannounced all that time'
    )
  })
})

describe('the header', () => {
  const facts = { revision: 1, epoch: 'e1', now: T, open: [], cooling: [], blind: [], unconfirmed: [], pollingPaused: false, notificationsPausedUntil: null }
  const headline = (windows: MaintenanceRecord[]): [string, string[]] => {
    const s = decideSituation({ ...facts, maintenance: windowsNamed(windows) })
    return [plainText(s.headline), s.maintenance] // the names' isolates: alert-situation.test.ts
  }

  it('leads with a window over everything, marks a long one with its days, and names five at most', () => {
    expect(headline([w({ connectionId: 'c1' })])).toEqual(['No alerts · maintenance: Patch night', ['Patch night']])
    expect(headline([w({ id: 2, name: 'Scoped', connectionId: 'c1' }), w({ id: 3, name: 'Upgrade' })])).toEqual([
      'All alerts silenced by Upgrade · no alerts · maintenance: Scoped',
      ['Upgrade', 'Scoped']
    ])
    expect(headline([w({ name: 'Freeze', endsAt: T + 12 * D, connectionId: 'c1' })])).toEqual(['No alerts · maintenance: Freeze (12 days)', ['Freeze']])
    expect(headline([w({ name: 'Freeze', endsAt: T + 12 * D })])[0]).toBe('All alerts silenced by Freeze (12 days) · no alerts')
    const many = Array.from({ length: 10_000 }, (_, i) => w({ id: i + 1, name: `W${i + 1}`, connectionId: 'c1' }))
    expect(headline(many)).toEqual(['No alerts · maintenance: W1, W2, W3, W4, W5 and 9995 more', ['W1', 'W2', 'W3', 'W4', 'W5']])
    const allOverEverything = Array.from({ length: 7 }, (_, i) => w({ id: i + 1, name: `E${i + 1}` }))
    expect(headline(allOverEverything)[0]).toBe('All alerts silenced by E1, E2, E3, E4, E5 · no alerts · maintenance: 2 more windows')
  })
})
