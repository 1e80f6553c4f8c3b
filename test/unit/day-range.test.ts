import { describe, expect, it } from 'vitest'
import { localDay, localDayRange } from '../../src/shared/day-range'

describe('local day ranges', () => {
  it('covers whole local days, as UTC instants', () => {
    const range = localDayRange('2026-11-14', '2026-11-21')
    expect(range).not.toBeNull()
    expect(Date.parse(range!.from)).toBe(new Date(2026, 10, 14, 0, 0, 0, 0).getTime())
    expect(Date.parse(range!.to)).toBe(new Date(2026, 10, 21, 23, 59, 59, 999).getTime())
    expect(range!.from).toMatch(/Z$/)
  })

  it('refuses a reversed or unreadable range', () => {
    expect(localDayRange('2026-11-21', '2026-11-14')).toBeNull()
    expect(localDayRange('yesterday', '2026-11-14')).toBeNull()
  })

  it('formats a local day for a date input', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 30).getTime())).toBe('2026-01-05')
  })
})
