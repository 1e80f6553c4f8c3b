// Wall-clock time in named zones with the platform's Intl (src/shared/time-zones.ts), and times as
// people type them (src/shared/local-times.ts): what a skipped or doubled reading means.
import { describe, expect, it } from 'vitest'
import { parseWallClock, readTime } from '../../src/shared/local-times'
import { canonicalTimeZone, instantAt, offsetAt, zonedIso } from '../../src/shared/time-zones'

/** "2026-03-21T22:00" as a wall-clock reading. */
const wall = (text: string): number => Date.parse(`${text}:00Z`)

describe('instantAt', () => {
  it.each([
    ['an ordinary winter evening', 'Europe/Berlin', '2026-03-21T22:00', '2026-03-21T21:00:00.000Z', 'exact'],
    ['an ordinary summer evening', 'Europe/Berlin', '2026-04-04T22:00', '2026-04-04T20:00:00.000Z', 'exact'],
    ['02:30 skipped by the jump from 02:00 to 03:00: as if it had not jumped (03:30 CEST)', 'Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z', 'skipped'],
    ['03:00 right after the jump', 'Europe/Berlin', '2026-03-29T03:00', '2026-03-29T01:00:00.000Z', 'exact'],
    ['02:30 shown twice when the clocks go back: the first (CEST)', 'Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z', 'twice'],
    ['New York, 02:30 skipped', 'America/New_York', '2026-03-08T02:30', '2026-03-08T07:30:00.000Z', 'skipped'],
    ['New York, 01:30 twice: the first (EDT)', 'America/New_York', '2026-11-01T01:30', '2026-11-01T05:30:00.000Z', 'twice'],
    ['Lord Howe moves half an hour: 02:15 skipped', 'Australia/Lord_Howe', '2026-10-04T02:15', '2026-10-03T15:45:00.000Z', 'skipped'],
    ['Kolkata never changes', 'Asia/Kolkata', '2026-03-29T02:30', '2026-03-28T21:00:00.000Z', 'exact']
  ])('%s', (_what, zone, local, instant, kind) => {
    const at = instantAt(zone, wall(local))
    expect(new Date(at.instant).toISOString()).toBe(instant)
    expect(at.kind).toBe(kind)
  })

  it('offsets and ISO text with the offset', () => {
    expect(offsetAt('Europe/Berlin', Date.parse('2026-07-01T00:00:00Z'))).toBe(2 * 3_600_000)
    expect(offsetAt('America/St_Johns', Date.parse('2026-01-01T00:00:00Z'))).toBe(-3.5 * 3_600_000)
    expect(zonedIso('Europe/Berlin', Date.parse('2026-03-21T21:00:00Z'))).toBe('2026-03-21T22:00:00+01:00')
    expect(zonedIso('Asia/Kolkata', Date.parse('2026-03-21T21:00:00Z'))).toBe('2026-03-22T02:30:00+05:30')
  })
})

describe('canonicalTimeZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['US/Eastern', 'America/New_York'],
    ['UTC', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['Mars/Olympus', null],
    ['+01:00', null],
    ['CEST', null],
    ['', null]
  ])('%s → %s', (name, expected) => {
    expect(canonicalTimeZone(name)).toBe(expected)
  })
})

describe('readTime', () => {
  it('keeps an offset the text gives, whatever the zone', () => {
    expect(readTime('2026-03-21T22:00:00+01:00', 'Asia/Tokyo')).toEqual({ ok: true, instant: Date.parse('2026-03-21T21:00:00Z'), note: null, zoned: false })
    expect(readTime('2026-03-21T21:00Z', 'Asia/Tokyo')).toMatchObject({ ok: true, instant: Date.parse('2026-03-21T21:00:00Z'), zoned: false })
  })

  it('reads a time without an offset in the zone', () => {
    expect(readTime('2026-03-21T22:00', 'Europe/Berlin')).toEqual({ ok: true, instant: Date.parse('2026-03-21T21:00:00Z'), note: null, zoned: true })
    expect(readTime('2026-03-21 22:00:30', 'America/New_York')).toMatchObject({ instant: Date.parse('2026-03-22T02:00:30Z') })
  })

  it('refuses a time the clocks skip, saying how they jump', () => {
    expect(readTime('2026-03-29T02:30', 'Europe/Berlin')).toEqual({
      ok: false,
      reason: '2026-03-29T02:30 does not exist in Europe/Berlin: the clocks jump from +01:00 to +02:00 over it. Give a time outside the jump, or an offset'
    })
  })

  it('reads a time shown twice as the first, and says so', () => {
    expect(readTime('2026-10-25T02:30', 'Europe/Berlin')).toEqual({
      ok: true,
      instant: Date.parse('2026-10-25T00:30:00Z'),
      note: '2026-10-25T02:30 happens twice in Europe/Berlin (the clocks go back): read as the first, 2026-10-25T02:30:00+02:00; give an offset for the other',
      zoned: true
    })
  })

  it('refuses what is not a date and time', () => {
    for (const text of ['tomorrow', '2026-02-30T10:00', '2026-03-21T24:00', '2026-03-21T22:60', '2026-03-21', '21/03/2026 22:00']) {
      expect(readTime(text, 'UTC'), text).toEqual({ ok: false, reason: `"${text}" is not a date and time (YYYY-MM-DDTHH:MM, optionally with an offset such as +01:00 or Z)` })
    }
    expect(parseWallClock('2026-03-21T22:00:05.5')).toBe(Date.UTC(2026, 2, 21, 22, 0, 5, 500))
  })
})
