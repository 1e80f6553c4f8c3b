// Schema drift, deterministic by position in the page so tests know what to expect:
// sessions — every record gains unknown fields; index % 3 === 1 loses a required field
// (contentId); index % 3 === 2 sends its numbers as numeric strings.
// viewers — every record gains unknown fields (also inside networkConnections); index % 4 === 3
// loses its viewerId; index % 4 === 1 sends cdnTraffic as a numeric string.

export const DRIFT_SESSION_MISSING = (index: number): boolean => index % 3 === 1
export const DRIFT_SESSION_STRINGS = (index: number): boolean => index % 3 === 2
export const DRIFT_VIEWER_MISSING = (index: number): boolean => index % 4 === 3
export const DRIFT_VIEWER_STRING = (index: number): boolean => index % 4 === 1

const NUMBER_FIELDS = ['viewersCount', 'reliabilityScore', 'cdnTraffic', 'ecdnTraffic']

export function driftSession(record: Record<string, unknown>, index: number, single = false): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record, x_region: 'emea', x_aggregates: { peakViewers: 12 } }
  // A single session stays usable: only the list shows missing fields.
  if (!single && DRIFT_SESSION_MISSING(index)) delete out.contentId
  if (single || DRIFT_SESSION_STRINGS(index)) {
    for (const field of NUMBER_FIELDS) if (typeof out[field] === 'number') out[field] = String(out[field])
  }
  return out
}

export function driftViewer(record: Record<string, unknown>, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record, x_bufferHealth: 0.93 }
  if (Array.isArray(out.networkConnections)) {
    out.networkConnections = out.networkConnections.map((c: unknown) =>
      typeof c === 'object' && c !== null ? { ...c, x_asn: 64500 } : c
    )
  }
  if (DRIFT_VIEWER_MISSING(index)) delete out.viewerId
  if (DRIFT_VIEWER_STRING(index) && typeof out.cdnTraffic === 'number') out.cdnTraffic = String(out.cdnTraffic)
  return out
}
