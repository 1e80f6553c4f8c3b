// How the wall lays out its tiles on the screen it has: the number of columns that gives the
// largest readable tile, the type size that fills it, and pages when even the best layout would
// make the type too small to read from across the room (the wall then turns the pages).

export interface WallLayout {
  columns: number
  rows: number
  /** Tiles per page; every tile when they all fit. */
  perPage: number
  pages: number
  /** The tiles' base type size in px: everything in a tile is sized from it. */
  fontPx: number
}

/** Below this a tile's figures no longer read from a few metres away. */
export const MIN_FONT_PX = 11
/** Above this a tile only wastes space on a huge screen. */
const MAX_FONT_PX = 44
/** A tile's words and figures take about this many lines of its base size (measured: about 21,
 *  plus room for its sparklines), and this many characters across. */
const TILE_LINES = 25
const TILE_CHARS = 24

interface Fit {
  columns: number
  rows: number
  fontPx: number
}

/** The best grid for `count` tiles in width × height (px), `gap` between and around them. */
function bestFit(count: number, width: number, height: number, gap: number): Fit {
  let best: Fit = { columns: 1, rows: count, fontPx: 0 }
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns)
    const tileWidth = (width - gap * (columns + 1)) / columns
    const tileHeight = (height - gap * (rows + 1)) / rows
    const fontPx = Math.min(tileHeight / TILE_LINES, tileWidth / TILE_CHARS)
    if (fontPx > best.fontPx) best = { columns, rows, fontPx }
  }
  return best
}

export function wallLayout(count: number, width: number, height: number, gap = 16): WallLayout {
  if (count <= 0 || width <= 0 || height <= 0) return { columns: 1, rows: 1, perPage: Math.max(count, 1), pages: 1, fontPx: MIN_FONT_PX }
  let perPage = count
  let fit = bestFit(count, width, height, gap)
  // Fewer tiles per page until they read; one at the very least.
  while (fit.fontPx < MIN_FONT_PX && perPage > 1) {
    perPage--
    fit = bestFit(perPage, width, height, gap)
  }
  return {
    columns: fit.columns,
    rows: fit.rows,
    perPage,
    pages: Math.ceil(count / perPage),
    fontPx: Math.round(Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, fit.fontPx)) * 10) / 10
  }
}
