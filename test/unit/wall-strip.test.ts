// wall-strip.ts: the wall's strip of alerts takes a few lines at most and counts the rest in a
// "+N more", rather than cut a line in half (issue 24, item 3: at 1366×768 the strip was cut mid-line).
import { describe, expect, it } from 'vitest'
import { STRIP_ROWS, stripLayout } from '../../src/renderer/src/components/live/wall-strip'

describe('stripLayout', () => {
  it('gives each alert a line of the whole width while they fit in its lines', () => {
    for (let count = 1; count <= STRIP_ROWS; count++) expect(stripLayout(count, 1366, 16)).toEqual({ columns: 1, shown: count, more: 0 })
    expect(stripLayout(0, 1366, 16)).toEqual({ columns: 1, shown: 0, more: 0 })
  })

  it('opens columns as alerts come, as many as the width holds in its type', () => {
    expect(stripLayout(STRIP_ROWS + 1, 1366, 16)).toEqual({ columns: 2, shown: STRIP_ROWS + 1, more: 0 })
    expect(stripLayout(2 * STRIP_ROWS, 1366, 16)).toMatchObject({ columns: 2, more: 0 })
    // 30 ems a place: 3840 px in 42 px type holds three, as 1920 in 21.
    expect(stripLayout(20, 3840, 42).columns).toBe(stripLayout(20, 1920, 21).columns)
  })

  it('counts what does not fit in its last place: never more than its lines', () => {
    const full = stripLayout(12, 1366, 16)
    expect(full.columns).toBe(2)
    expect(full.shown + 1).toBe(full.columns * STRIP_ROWS)
    expect(full.shown + full.more).toBe(12)
    // A screen too narrow for two places: one column, its last line "+N more".
    expect(stripLayout(5, 400, 16)).toEqual({ columns: 1, shown: STRIP_ROWS - 1, more: 5 - STRIP_ROWS + 1 })
  })

  it('has one column before the width is measured', () => {
    expect(stripLayout(9, 0, 16)).toEqual({ columns: 1, shown: STRIP_ROWS - 1, more: 9 - STRIP_ROWS + 1 })
  })
})
