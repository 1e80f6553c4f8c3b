// The wall's strip of alerts up: a few lines at most, each alert on one line, and "+N more" in
// the last place rather than a line cut in half. One column while the alerts fit in STRIP_ROWS
// lines (each gets the screen's width for its words), more columns as they come, as many as
// the strip's width holds.

export interface StripLayout {
  columns: number
  /** The alerts shown, worst first. */
  shown: number
  /** The rest, counted in the strip's last place. */
  more: number
}

/** Lines the strip takes at most. */
export const STRIP_ROWS = 3
/** The narrowest an alert's place may be, in ems of the strip's type: a name and the start of
 *  its summary read in it. */
const ITEM_EMS = 30

export function stripLayout(count: number, widthPx: number, emPx: number): StripLayout {
  if (count <= 0) return { columns: 1, shown: 0, more: 0 }
  const fit = widthPx > 0 && emPx > 0 ? Math.max(1, Math.floor(widthPx / (ITEM_EMS * emPx))) : 1
  const columns = Math.min(fit, Math.ceil(count / STRIP_ROWS))
  const places = columns * STRIP_ROWS
  if (count <= places) return { columns, shown: count, more: 0 }
  return { columns, shown: places - 1, more: count - places + 1 }
}
