// A breakdown row picked as a filter of the viewer table, and the viewerPage filter it means.
import type { BreakdownDimension, ViewerFilter } from '../../../../shared/screens'

export interface BreakdownPick {
  dimension: BreakdownDimension
  /** The breakdown's key; null for its "unknown" group. */
  key: string | null
}

export const DIMENSION_LABELS: Record<BreakdownDimension, string> = {
  site: 'Site',
  deviceType: 'Device type',
  os: 'OS',
  app: 'App',
  connectionType: 'Connection type'
}

/** The viewerPage filter of a text search and a picked breakdown row. */
export function viewerFilter(text: string, pick: BreakdownPick | null): ViewerFilter | undefined {
  const filter: ViewerFilter = {}
  if (text.trim() !== '') filter.text = text.trim()
  if (pick) {
    if (pick.dimension === 'site') {
      const code = pick.key === null ? null : Number(pick.key)
      filter.siteCode = code === null || Number.isNaN(code) ? null : code
    } else filter[pick.dimension] = pick.key
  }
  return Object.keys(filter).length > 0 ? filter : undefined
}

export const keyLabel = (key: string | null): string => key ?? 'unknown'
