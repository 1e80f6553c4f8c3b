// The viewer table's columns: what each shows, how it sorts and how wide it is.
import type { ViewerSort } from '../../../../shared/screens'

export interface ViewerColumn {
  id: string
  label: string
  /** The viewerPage sort; null where the core cannot sort by it. */
  sort: ViewerSort | null
  numeric: boolean
  width: string
}

export const VIEWER_COLUMNS: ViewerColumn[] = [
  { id: 'viewerId', label: 'Viewer', sort: 'viewerId', numeric: false, width: 'minmax(130px, 1.4fr)' },
  { id: 'deviceType', label: 'Device', sort: 'deviceType', numeric: false, width: 'minmax(80px, 0.8fr)' },
  { id: 'os', label: 'OS', sort: 'os', numeric: false, width: 'minmax(80px, 0.8fr)' },
  { id: 'app', label: 'App', sort: 'app', numeric: false, width: 'minmax(90px, 1fr)' },
  { id: 'siteCode', label: 'Site', sort: 'siteCode', numeric: true, width: 'minmax(64px, 0.8fr)' },
  { id: 'connectionType', label: 'Connection', sort: 'connectionType', numeric: false, width: 'minmax(90px, 0.9fr)' },
  { id: 'publicIp', label: 'Public IP', sort: 'publicIp', numeric: false, width: '118px' },
  { id: 'reliabilityScore', label: 'Reliability', sort: 'reliabilityScore', numeric: true, width: '136px' },
  { id: 'rebufferingRatio', label: 'Rebuffering', sort: 'rebufferingRatio', numeric: true, width: '122px' },
  { id: 'viewingTime', label: 'Viewing time', sort: 'viewingTime', numeric: true, width: '126px' },
  { id: 'cdnTraffic', label: 'CDN', sort: 'cdnTraffic', numeric: true, width: '84px' },
  { id: 'ecdnTraffic', label: 'ECDN', sort: 'ecdnTraffic', numeric: true, width: '84px' },
  { id: 'cdnErrorRate', label: 'CDN errors', sort: 'cdnErrorRate', numeric: true, width: '108px' },
  { id: 'startedAt', label: 'Started', sort: 'startedAt', numeric: true, width: '128px' }
]

export const GRID_TEMPLATE = VIEWER_COLUMNS.map((c) => c.width).join(' ')

/** The first direction of a newly picked sort: worst reliability first, big numbers first, names A–Z. */
export function firstDirectionDescending(sort: ViewerSort): boolean {
  if (sort === 'reliabilityScore') return false
  return VIEWER_COLUMNS.find((c) => c.sort === sort)?.numeric ?? false
}
