// A breakdown row picked as a filter of the viewer table, and the viewerPage filter it means.
import type { BreakdownDimension, ViewerFilter } from '../../../../shared/screens'

export interface BreakdownPick {
  dimension: BreakdownDimension
  /** The breakdown's key; null for its "unknown" group. */
  key: string | null
  /** A site's name, for the filter chip. */
  name?: string | null
}

export const DIMENSION_LABELS: Record<BreakdownDimension, string> = {
  site: 'Site',
  deviceType: 'Device type',
  os: 'OS',
  app: 'App',
  connectionType: 'Connection type'
}

/** The viewerPage filter of a text search, a picked breakdown row and "still watching only". */
export function viewerFilter(text: string, pick: BreakdownPick | null, watching = false): ViewerFilter | undefined {
  const filter: ViewerFilter = {}
  if (watching) filter.watching = true
  if (text.trim() !== '') filter.text = text.trim()
  if (pick) {
    if (pick.dimension === 'site') {
      const code = pick.key === null ? null : Number(pick.key)
      filter.siteCode = code === null || Number.isNaN(code) ? null : code
    } else filter[pick.dimension] = pick.key
  }
  return Object.keys(filter).length > 0 ? filter : undefined
}

/** A breakdown key as shown: "unknown" for null, and a site with its name as "311 · London". */
export const keyLabel = (key: string | null, name: string | null = null): string => (key === null ? 'unknown' : name ? `${key} · ${name}` : key)
