// Orders of the live wall. "Trouble first": worst reliability on top, then the biggest audience.
import type { LiveSession } from './domain'

export type LiveSortKey = 'trouble' | 'name' | 'viewers' | 'reliability' | 'cdn' | 'ecdn' | 'started'

const byName = (a: LiveSession, b: LiveSession): number =>
  (a.eventName ?? a.contentId).localeCompare(b.eventName ?? b.contentId)

const comparators: Record<LiveSortKey, (a: LiveSession, b: LiveSession) => number> = {
  trouble: (a, b) => a.reliabilityScore - b.reliabilityScore || b.viewersCount - a.viewersCount,
  name: byName,
  viewers: (a, b) => a.viewersCount - b.viewersCount,
  reliability: (a, b) => a.reliabilityScore - b.reliabilityScore,
  cdn: (a, b) => a.cdnTraffic - b.cdnTraffic,
  ecdn: (a, b) => a.ecdnTraffic - b.ecdnTraffic,
  started: (a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt)
}

export function sortLiveSessions(sessions: readonly LiveSession[], key: LiveSortKey, descending: boolean): LiveSession[] {
  const compare = comparators[key]
  const sign = descending ? -1 : 1
  // Ties fall back to name then id, so rows never jump around between updates.
  return [...sessions].sort(
    (a, b) => sign * compare(a, b) || byName(a, b) || a.eventSessionId.localeCompare(b.eventSessionId)
  )
}
