// wall-layout.ts: the wall fits its live sessions on the screen it has, in type that reads from
// where the screen is watched, and turns pages only when it cannot (issue 14: 1920×1080 cut the 7th
// of 7 tiles off; issue 24: at 1366×768 4 tiles a page for 11 sessions, figures of 34 px at 1920).
import { describe, expect, it } from 'vitest'
import { MIN_FONT_PX, readableFontPx, TILE_EMS_HIGH, TILE_EMS_WIDE, wallLayout } from '../../src/renderer/src/components/live/wall-layout'

/** The grid's room on a screen: the wall's chrome (one status line, a strip of 2 alerts) takes
 *  about 12% of its height. */
const screen = (width: number, height: number) => [width, Math.round(height * 0.88)] as const

/** A tile's size in px on `layout`, in a grid of width × height. */
function tileOf(layout: ReturnType<typeof wallLayout>, width: number, height: number) {
  const gap = layout.gapPx
  return { width: (width - gap * (layout.columns + 1)) / layout.columns, height: (height - gap * (layout.rows + 1)) / layout.rows }
}

describe('wallLayout', () => {
  it('puts 10 tiles (the desk: 8 live, 2 of a stopped connection) on one page at 1366×768, 1920×1080 and 3840×2160', () => {
    for (const [w, h] of [screen(1366, 768), screen(1920, 1080), screen(3840, 2160)]) {
      const layout = wallLayout(10, w, h)
      expect(layout, `${w}×${h}`).toMatchObject({ pages: 1, perPage: 10 })
      expect(layout.columns * layout.rows).toBeGreaterThanOrEqual(10)
    }
  })

  it('gives every tile the room its contents take at the type it chose', () => {
    for (const [w, h] of [screen(1366, 768), screen(1920, 1080), screen(3840, 2160), [800, 600] as const]) {
      for (const count of [1, 2, 5, 8, 10, 13, 22, 40]) {
        const layout = wallLayout(count, w, h)
        const tile = tileOf(layout, w, h)
        expect(tile.height / layout.fontPx, `${count} on ${w}×${h}`).toBeGreaterThanOrEqual(TILE_EMS_HIGH)
        expect(tile.width / layout.fontPx, `${count} on ${w}×${h}`).toBeGreaterThanOrEqual(TILE_EMS_WIDE)
        expect(layout.columns * layout.rows).toBeGreaterThanOrEqual(layout.perPage)
        expect(layout.perPage * layout.pages).toBeGreaterThanOrEqual(count)
      }
    }
  })

  it('reads from across the room at full HD: type of 20 px and more with 10 tiles (figures three times that)', () => {
    expect(wallLayout(10, ...screen(1920, 1080)).fontPx).toBeGreaterThanOrEqual(20)
  })

  it('grows the type with the screen: 4K reads at twice the size of full HD, full HD above a laptop', () => {
    for (const count of [10, 22]) {
      const laptop = wallLayout(count, ...screen(1366, 768))
      const hd = wallLayout(count, ...screen(1920, 1080))
      const uhd = wallLayout(count, ...screen(3840, 2160))
      expect(hd.fontPx, `${count} tiles`).toBeGreaterThan(laptop.fontPx)
      expect(uhd.fontPx, `${count} tiles`).toBeGreaterThanOrEqual(hd.fontPx * 1.9)
    }
  })

  it('turns pages rather than shrink the type below what reads from where the screen is watched, and shares the tiles out evenly', () => {
    for (const [w, h] of [screen(1366, 768), screen(1920, 1080), screen(3840, 2160)]) {
      const layout = wallLayout(22, w, h)
      expect(layout.fontPx, `22 on ${w}×${h}`).toBeGreaterThanOrEqual(readableFontPx(w, h) - 0.1)
      // 22 on two pages of 11, never 16 and 6.
      expect(layout, `22 on ${w}×${h}`).toMatchObject({ pages: 2, perPage: 11 })
    }
    const readable = readableFontPx(...screen(1920, 1080))
    expect(readable).toBeGreaterThan(readableFontPx(...screen(1366, 768)))
    expect(readableFontPx(...screen(3840, 2160))).toBeGreaterThanOrEqual(readable * 1.9)
    expect(readableFontPx(320, 240)).toBe(MIN_FONT_PX)
  })

  it('prefers the grid that gives the largest type: wide screens get more columns than rows', () => {
    const layout = wallLayout(6, ...screen(1920, 1080))
    expect(layout.columns).toBeGreaterThan(layout.rows)
    expect(wallLayout(1, 800, 600)).toMatchObject({ columns: 1, rows: 1, pages: 1 })
    expect(wallLayout(0, 800, 600)).toMatchObject({ pages: 1 })
  })

  it('spaces the tiles by the screen: 8 px on a laptop, 24 on a 4K wall', () => {
    expect(wallLayout(4, 1366, 700).gapPx).toBe(9)
    expect(wallLayout(4, 3840, 2000).gapPx).toBe(24)
    expect(wallLayout(4, 800, 600).gapPx).toBe(8)
  })
})
