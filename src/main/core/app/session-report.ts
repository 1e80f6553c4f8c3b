// A post-event report of one session (issue 14): the story a stakeholder asks for after a town
// hall — audience, quality, where it hurt, the alert timeline — from the cache alone, with every
// verdict decided by the core as the screens show it. `eventwatch report` prints it as JSON or
// as self-contained HTML (report-html.ts); the drill-down's "Report…" saves the same.
import { listAlerts } from '../store/alerts'
import { getDisplaySettings } from '../store/settings'
import { breakdownKeyName, siteNameBook } from '../store/site-names'
import { resolveUnits } from '../store/units'
import type { Db } from '../store/db'
import { breakdown, BREAKDOWN_DIMENSIONS, pastSessions, snapshotsForChart, type BreakdownDimension } from '../store/queries'
import type { ReportGroup, ReportPoint, SessionReport } from '../report/session-report-shape'
import { judgedStory } from './judged-story'
import { Verdicts } from './verdicts'

/** Points of the report's timeline: enough for a printed page. */
const TIMELINE_POINTS = 120
/** Groups listed per dimension under "where it hurt", worst first. */
const WORST_GROUPS = 5
/** Every alert the cache kept about the session, however old. */
const ALL_HISTORY_HOURS = 24 * 366 * 20

/** The report of a cached session; null when the cache has no such session. */
export function buildSessionReport(db: Db, connectionId: string, eventSessionId: string, now: number): SessionReport | null {
  const verdicts = new Verdicts(db)
  const row = pastSessions(db, { connectionId, search: eventSessionId, includeLive: true, sort: 'started', limit: 1000 }).rows.find(
    (r) => r.eventSessionId === eventSessionId
  )
  if (!row) return null
  const session = verdicts.of(row)
  const story = judgedStory(db, verdicts, connectionId, eventSessionId, TIMELINE_POINTS)
  // Only snapshots of polls made while it was live: the service's figures after its end are no audience.
  const live = { to: row.endedObservedAt === null ? undefined : Date.parse(row.endedObservedAt) }
  const timeline = timelineOf(db, verdicts, connectionId, eventSessionId, story, live)
  const lowest = timeline.points.reduce<ReportPoint | null>(
    (worst, p) => (p.reliability !== null && (worst === null || p.reliability < (worst.reliability ?? Infinity)) ? p : worst),
    null
  )
  return {
    generatedAt: new Date(now).toISOString(),
    session: {
      connectionName: session.connectionName,
      eventSessionId: session.eventSessionId,
      eventName: session.eventName,
      contentId: session.contentId,
      startedAt: session.startedAt,
      hasEnded: session.hasEnded,
      endedAt: session.endedAt,
      endedAtSource: session.endedAtSource,
      reliability: session.reliability,
      health: session.health,
      levels: session.levels,
      cdnTraffic: session.cdnTraffic,
      ecdnTraffic: session.ecdnTraffic,
      lastPolledAt: session.lastPolledAt
    },
    audience: {
      peakViewers: session.peakSource === null ? null : session.peakViewers,
      peakAt: session.peakAt,
      peakSource: session.peakSource,
      peakUntimed: session.peakUntimed,
      viewers: session.viewerListCount,
      stillWatching: story?.stillWatching ?? null,
      viewingTime: story?.viewingTime ?? null,
      viewerListFetchedAt: session.viewerListFetchedAt
    },
    quality: {
      lowest: lowest && lowest.reliability !== null ? { reliability: lowest.reliability, at: new Date(lowest.at).toISOString(), health: lowest.health } : null,
      snapshots: snapshotsForChart(db, connectionId, eventSessionId, { ...live, maxPoints: 1 }).total
    },
    whereItHurt: Object.fromEntries(
      BREAKDOWN_DIMENSIONS.map((dimension) => [dimension, worstGroups(db, verdicts, connectionId, eventSessionId, dimension)])
    ) as Record<BreakdownDimension, ReportGroup[]>,
    alerts: listAlerts(db, { connectionId, eventSessionId, historyHours: ALL_HISTORY_HOURS, limit: 1000 }, now)
      .map(({ rule, severity, state, summary, firedAt, resolvedAt, endReason, endKind, transitions }) => ({
        rule, severity, state, summary, firedAt, resolvedAt, endReason, endKind,
        acknowledgements: transitions.filter((t) => t.state === 'acknowledged').map((t) => ({ by: t.by ?? null, at: t.at, note: t.note }))
      }))
      .sort((a, b) => (a.firedAt ?? '').localeCompare(b.firedAt ?? '')),
    timeline,
    units: unitsOf(db)
  }
}

/** The snapshots when there are enough to draw, else the viewer list's story. */
function timelineOf(
  db: Db,
  verdicts: Verdicts,
  connectionId: string,
  eventSessionId: string,
  story: ReturnType<typeof judgedStory>,
  live: { to?: number }
): SessionReport['timeline'] {
  const chart = snapshotsForChart(db, connectionId, eventSessionId, { ...live, maxPoints: TIMELINE_POINTS })
  if (chart.points.length >= 2) {
    return {
      source: 'snapshots',
      points: chart.points.map((p) => ({
        at: p.takenAt,
        viewers: p.viewersCount,
        ...verdicts.judge(connectionId, eventSessionId, p.reliabilityScore)
      }))
    }
  }
  if (story && story.points.length > 0) {
    return { source: 'viewers', points: story.points.map((p) => ({ at: p.at, viewers: p.peak, reliability: p.reliability, health: p.health })) }
  }
  return { source: null, points: [] }
}

function worstGroups(db: Db, verdicts: Verdicts, connectionId: string, eventSessionId: string, dimension: BreakdownDimension): ReportGroup[] {
  const sites = siteNameBook(db)
  return breakdown(db, connectionId, eventSessionId, dimension)
    .slice(0, WORST_GROUPS)
    .map((row) => {
      const { reliability, health } = verdicts.judge(connectionId, eventSessionId, row.avgReliability)
      return { key: row.key, name: breakdownKeyName(sites, dimension, row.key), viewers: row.viewers, reliability, health, rebufferingRatio: row.rebufferingRatio, cdnErrorRate: row.cdnErrorRate }
    })
}

function unitsOf(db: Db): SessionReport['units'] {
  const units = resolveUnits(db, getDisplaySettings(db))
  return { traffic: units.trafficUnit.value, viewerTime: units.viewerTimeUnit.value }
}
