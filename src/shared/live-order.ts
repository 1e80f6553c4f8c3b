// Orders of the live screen. "Trouble first", the one worst-first order of every face (Live, the
// wall, the tray menu): critical, then warning — a session's own health, or the severity of an
// alert firing on it (its own, or its worst site alert) — then the rest, the biggest audience
// first within each (more people affected matters most). Health, alerts and the reliability on
// 0–100 are the core's verdicts on each row: nothing is judged here.
import type { SessionAlert } from './alerts'
import type { LiveSession } from './domain'
import { offloadShare } from './live-metrics'
import type { Health } from './reliability'

export type LiveSortKey =
  | 'trouble'
  | 'name'
  | 'connection'
  | 'viewers'
  | 'reliability'
  | 'cdn'
  | 'ecdn'
  | 'offload'
  | 'rate'
  | 'lastPoll'
  | 'started'

/** What ordering needs beyond the record: the traffic rate. */
export interface LiveOrderContext {
  /** Bytes per second now, or null when there is no rate. */
  rate?: (session: LiveSession) => number | null
}

const HEALTH_RANK: Record<Health, number> = { critical: 0, warning: 1, unknown: 2, good: 3 }
/** An acknowledged alert still fires: the operator knows, the problem is not gone. Pending, held
 *  and muted ones do not rank their session. */
const FIRING: readonly SessionAlert['state'][] = ['firing', 'acknowledged']

/** A session's place in trouble-first: its health, or a firing alert's severity if worse. */
function troubleRank(s: LiveSession): number {
  const own = s.alert && FIRING.includes(s.alert.state) ? HEALTH_RANK[s.alert.severity] : Infinity
  // A failing office ranks its session as its alert's severity, though the session holds.
  const site = s.siteAlert ? HEALTH_RANK[s.siteAlert.severity] : Infinity
  return Math.min(HEALTH_RANK[s.health], own, site)
}

const byName = (a: LiveSession, b: LiveSession): number =>
  (a.eventName ?? a.contentId).localeCompare(b.eventName ?? b.contentId)

type Value = (s: LiveSession, context: Required<LiveOrderContext>) => number | string | null

const values: Record<Exclude<LiveSortKey, 'trouble'>, Value> = {
  name: (s) => s.eventName ?? s.contentId,
  connection: (s) => s.connectionName,
  viewers: (s) => s.viewersCount,
  reliability: (s) => s.reliability,
  cdn: (s) => s.cdnTraffic,
  ecdn: (s) => s.ecdnTraffic,
  offload: (s) => offloadShare(s.cdnTraffic, s.ecdnTraffic),
  rate: (s, c) => c.rate(s),
  lastPoll: (s) => (s.lastPolledAt === null ? null : Date.parse(s.lastPolledAt)),
  started: (s) => Date.parse(s.startedAt)
}

function compareValues(a: number | string | null, b: number | string | null): number {
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b)
  return (a as number) - (b as number)
}

const isMissing = (v: number | string | null): boolean => v === null || (typeof v === 'number' && !Number.isFinite(v))

export function sortLiveSessions(
  sessions: readonly LiveSession[],
  key: LiveSortKey,
  descending: boolean,
  context: LiveOrderContext = {}
): LiveSession[] {
  const ctx: Required<LiveOrderContext> = { rate: () => null, ...context }
  const sign = descending ? -1 : 1
  // Ties fall back to name then id, so rows never jump around between updates.
  const tieBreak = (a: LiveSession, b: LiveSession): number => byName(a, b) || a.eventSessionId.localeCompare(b.eventSessionId)

  if (key === 'trouble') {
    // Among equals, the lower score first; a session without one after those with one.
    const score = (s: LiveSession): number => s.reliability ?? Number.POSITIVE_INFINITY
    const lower = (a: LiveSession, b: LiveSession): number => (score(a) === score(b) ? 0 : score(a) < score(b) ? -1 : 1)
    return [...sessions].sort(
      (a, b) => sign * (troubleRank(a) - troubleRank(b) || b.viewersCount - a.viewersCount || lower(a, b)) || tieBreak(a, b)
    )
  }

  const value = values[key]
  const decorated = sessions.map((s) => ({ s, v: value(s, ctx) }))
  decorated.sort((a, b) => {
    // Rows without a value (no rate yet, never polled) go last whichever the direction.
    const missing = Number(isMissing(a.v)) - Number(isMissing(b.v))
    if (missing !== 0) return missing
    const order = isMissing(a.v) ? 0 : compareValues(a.v, b.v)
    return sign * order || tieBreak(a.s, b.s)
  })
  return decorated.map((d) => d.s)
}
