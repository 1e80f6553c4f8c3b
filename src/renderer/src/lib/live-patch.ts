// How the live store patches its trends from the core's pushes, pure so it is unit-tested
// (test/unit/live-patch.test.ts): each session's trend grown by the newest snapshot the push
// carries, an hour long at most. The rows themselves: patchSessions in shared/live-board.ts.
import type { ChartPoint } from '../../../shared/chart-point'
import { sessionKey, type SessionKey } from '../../../shared/schema-parts'

/** How far back a live trend reaches. */
export const TREND_WINDOW_MS = 3_600_000

/** A trend with one more point, when it is newer than its last; points older than `from` (ms) leave. */
export function appendPoint(points: readonly ChartPoint[], point: ChartPoint, from: number): ChartPoint[] {
  const last = points[points.length - 1]
  const grown = last && !(point.takenAt > last.takenAt) ? points : [...points, point]
  return grown[0] && grown[0].takenAt < from ? grown.filter((p) => p.takenAt >= from) : [...grown]
}

/** A fetched trend, followed by the points pushes brought meanwhile that are newer than it. */
export function mergeTrend(fetched: readonly ChartPoint[], held: readonly ChartPoint[] | undefined): ChartPoint[] {
  const last = fetched[fetched.length - 1]?.takenAt ?? Number.NEGATIVE_INFINITY
  return [...fetched, ...(held ?? []).filter((p) => p.takenAt > last)]
}

/** Only the trends of these sessions (the others left Live). */
export function keepTrends(trends: Record<string, ChartPoint[]>, sessions: readonly SessionKey[]): Record<string, ChartPoint[]> {
  const live = new Set(sessions.map(sessionKey))
  return Object.fromEntries(Object.entries(trends).filter(([key]) => live.has(key)))
}

/** The trends with fetched ones merged in (for sessions still live), pushed points kept. */
export function withFetched(
  trends: Record<string, ChartPoint[]>,
  fetched: ReadonlyArray<SessionKey & { points: ChartPoint[] }>,
  sessions: readonly SessionKey[]
): Record<string, ChartPoint[]> {
  const live = new Set(sessions.map(sessionKey))
  const next = { ...trends }
  for (const trend of fetched) {
    const key = sessionKey(trend)
    if (live.has(key)) next[key] = mergeTrend(trend.points, next[key])
  }
  return next
}

/**
 * Which sessions' trends to ask for: those never fetched (or whose fetch failed). Keys move
 * from wanted to fetched when taken, so a session is asked for once per screen opening.
 */
export class TrendQueue {
  private fetched = new Set<string>()
  private wanted = new Map<string, SessionKey>()

  get size(): number {
    return this.wanted.size
  }

  /** Forgets what was fetched: a screen opens, every trend is asked for again. */
  restart(): void {
    this.fetched.clear()
  }

  /** Queues the sessions not fetched yet; true when anything waits. */
  want(sessions: readonly SessionKey[]): boolean {
    for (const s of sessions) {
      const key = sessionKey(s)
      if (!this.fetched.has(key)) this.wanted.set(key, { connectionId: s.connectionId, eventSessionId: s.eventSessionId })
    }
    return this.wanted.size > 0
  }

  /** Up to `max` waiting sessions, counted as fetched from now on. */
  take(max: number): SessionKey[] {
    const batch = [...this.wanted].slice(0, max)
    for (const [key] of batch) {
      this.wanted.delete(key)
      this.fetched.add(key)
    }
    return batch.map(([, s]) => s)
  }

  /** Their fetch failed: asked for again when they next come up. */
  failed(sessions: readonly SessionKey[]): void {
    for (const s of sessions) this.fetched.delete(sessionKey(s))
  }

  /** Sessions that left Live: forgotten. */
  drop(sessions: readonly SessionKey[]): void {
    for (const s of sessions) {
      this.fetched.delete(sessionKey(s))
      this.wanted.delete(sessionKey(s))
    }
  }

  /** No screen shows trends any more: nothing waits. */
  clearWaiting(): void {
    this.wanted.clear()
  }
}
