// wall-layout.ts: the wall fits every live session on the screen it has, in type that reads,
// and turns pages only when it cannot (issue 14: 1920×1080 cut the 7th of 7 tiles off; 1366×768
// showed 6 of 8; 3840×2160 kept small type in mostly empty tiles).
import { describe, expect, it } from 'vitest'
import { MIN_FONT_PX, wallLayout } from '../../src/renderer/src/components/live/wall-layout'

/** The grid's room on a screen: the status line takes about 50 px. */
const screen = (width: number, height: number) => [width, height - 50] as const

describe('wallLayout', () => {
  it('puts every tile on one page at 1366×768, 1920×1080 and 3840×2160 with 7 and 8 sessions', () => {
    for (const [w, h] of [screen(1366, 768), screen(1920, 1080), screen(3840, 2160)]) {
      for (const count of [7, 8]) {
        const layout = wallLayout(count, w, h)
        expect(layout.pages, `${count} on ${w}×${h}`).toBe(1)
        expect(layout.columns * layout.rows).toBeGreaterThanOrEqual(count)
        expect(layout.fontPx).toBeGreaterThanOrEqual(MIN_FONT_PX)
      }
    }
  })

  it('grows the type with the screen: a 4K wall reads at twice the size of a full-HD one', () => {
    const hd = wallLayout(8, ...screen(1920, 1080))
    const uhd = wallLayout(8, ...screen(3840, 2160))
    expect(uhd.fontPx).toBeGreaterThanOrEqual(hd.fontPx * 1.9)
  })

  it('fits 20 sessions on a 4K wall, and turns pages on a laptop rather than shrink the type below reading size', () => {
    expect(wallLayout(20, ...screen(3840, 2160))).toMatchObject({ pages: 1 })
    const laptop = wallLayout(20, ...screen(1366, 768))
    expect(laptop.pages).toBeGreaterThan(1)
    expect(laptop.perPage * laptop.pages).toBeGreaterThanOrEqual(20)
    expect(laptop.fontPx).toBeGreaterThanOrEqual(MIN_FONT_PX)
  })

  it('prefers the grid that gives the largest tiles: wide screens get more columns than rows', () => {
    const layout = wallLayout(6, ...screen(1920, 1080))
    expect(layout.columns).toBeGreaterThan(layout.rows)
    expect(wallLayout(1, 800, 600)).toMatchObject({ columns: 1, rows: 1, pages: 1 })
  })
})
