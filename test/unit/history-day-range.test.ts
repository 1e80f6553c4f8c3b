import { describe, expect, it } from 'vitest'
import { dayStartMs, historyDayRange } from '../../src/renderer/src/lib/history-day-range'

describe('history day range', () => {
  it('reads whole days in UTC: from inclusive, to the start of the next day', () => {
    expect(historyDayRange('2026-11-14', '2026-11-21', 'utc')).toEqual({
      ok: true,
      from: '2026-11-14T00:00:00.000Z',
      to: '2026-11-22T00:00:00.000Z'
    })
  })

  it('reads whole days in local time', () => {
    const range = historyDayRange('2026-03-01', '2026-03-01', 'local')
    expect(range.ok).toBe(true)
    if (!range.ok) return
    expect(Date.parse(range.from!)).toBe(new Date(2026, 2, 1).getTime())
    expect(Date.parse(range.to!)).toBe(new Date(2026, 2, 2).getTime())
  })

  it('leaves an empty end open', () => {
    expect(historyDayRange('', '2026-01-31', 'utc')).toEqual({ ok: true, to: '2026-02-01T00:00:00.000Z' })
    expect(historyDayRange('', '', 'local')).toEqual({ ok: true })
  })

  it('explains a reversed range or a day that does not exist', () => {
    const reversed = historyDayRange('2026-11-21', '2026-11-14', 'utc')
    expect(reversed).toEqual({ ok: false, problem: expect.stringContaining('after') })
    expect(historyDayRange('2026-02-31', '', 'utc').ok).toBe(false)
    expect(dayStartMs('yesterday', 'local')).toBeNull()
  })

  it('rolls over month ends when adding the next day', () => {
    expect(dayStartMs('2026-12-31', 'utc', 1)).toBe(Date.UTC(2027, 0, 1))
  })
})
