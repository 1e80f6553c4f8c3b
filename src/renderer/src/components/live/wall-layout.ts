// How the wall lays out its tiles on the screen it has: the number of columns that gives the
// largest type, the type size that fills the tiles, and pages when even the best layout would
// make the type too small to read from across the room (the wall then turns the pages).

export interface WallLayout {
  columns: number
  rows: number
  /** Tiles per page; every tile when they all fit. */
  perPage: number
  pages: number
  /** The tiles' base type size in px: everything in a tile is sized from it. */
  fontPx: number
  /** Between tiles and around them, in px. */
  gapPx: number
}

/** Below this a tile's figures no longer read, whatever the screen. */
export const MIN_FONT_PX = 11
/** Above this a tile only wastes space with a few sessions on a huge screen. */
const MAX_FONT_PX = 64
/**
 * A tile's contents in ems of its base size (WallTile.svelte), measured: its height with the name
 * on two lines, the connection, its marks on two lines, one more line (a site's alert), both
 * figures with their labels, the offload, gaps and padding, the sparklines given nothing; and the
 * width its widest mark ("✔ Alert acknowledged") and figures need.
 */
export const TILE_EMS_HIGH = 21.5
export const TILE_EMS_WIDE = 13.5

/**
 * The smallest base size that reads from where the screen is watched: a share of the screen, so a
 * wall read from across the room keeps its sessions as legible at 3840×2160 as at 1920×1080
 * (11 px at the least: a laptop's desk).
 */
export function readableFontPx(width: number, height: number): number {
  return Math.max(MIN_FONT_PX, Math.min(width / 100, height / 50))
}

/** The space between tiles, from the screen's width: 8 px on a laptop, 24 on a 4K wall. */
export function gapFor(width: number): number {
  return Math.round(Math.min(24, Math.max(8, width / 160)))
}

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
    const fontPx = Math.min(tileHeight / TILE_EMS_HIGH, tileWidth / TILE_EMS_WIDE)
    if (fontPx > best.fontPx) best = { columns, rows, fontPx }
  }
  return best
}

export function wallLayout(count: number, width: number, height: number): WallLayout {
  const gapPx = gapFor(width)
  if (count <= 0 || width <= 0 || height <= 0) return { columns: 1, rows: 1, perPage: Math.max(count, 1), pages: 1, fontPx: MIN_FONT_PX, gapPx }
  const readable = readableFontPx(width, height)
  let perPage = count
  let fit = bestFit(count, width, height, gapPx)
  // Fewer tiles per page until they read; one at the very least.
  while (fit.fontPx < readable && perPage > 1) {
    perPage--
    fit = bestFit(perPage, width, height, gapPx)
  }
  // Pages share the tiles out evenly (22 on pages of 16 would leave 6 on the second), in the
  // larger type that fewer tiles a page allow.
  const pages = Math.ceil(count / perPage)
  perPage = Math.ceil(count / pages)
  fit = bestFit(perPage, width, height, gapPx)
  return {
    columns: fit.columns,
    rows: fit.rows,
    perPage,
    pages,
    fontPx: Math.floor(Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, fit.fontPx)) * 10) / 10,
    gapPx
  }
}
