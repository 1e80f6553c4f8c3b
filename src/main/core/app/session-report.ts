// A post-event report of one session (issue 14): the story a stakeholder asks for after a town
// hall — audience, quality, where it hurt, the alert timeline — from the cache alone, with every
// verdict decided by the core as the screens show it. `eventwatch report` prints it as JSON or
// as self-contained HTML (report-html.ts); the drill-down's "Report…" saves the same.
import { alertLink } from '../../../shared/alert-link'
import type { LinkBase } from '../../../shared/session-link'
import { breakdownKeyName, siteNameBookOf } from '../store/site-names'
import { detectsUnits, unitsOf } from '../store/units'
import type { ReadTx } from '../store/interface/store'
import { BREAKDOWN_DIMENSIONS, type BreakdownDimension } from '../store/queries'
import type { ReportGroup, ReportPoint, SessionReport } from '../report/session-report-shape'
import { judgedStory } from './judged-story'
import { loadVerdicts, type Verdicts } from './verdicts'

/** Points of the report's timeline: enough for a printed page. */
const TIMELINE_POINTS = 120
/** Groups listed per dimension under "where it hurt", worst first. */
const WORST_GROUPS = 5
/** Every alert the cache kept about the session, however old. */
const ALL_HISTORY_HOURS = 24 * 366 * 20

/** The report of a cached session; null when the cache has no such session. `read`: a read-only
 *  unit's (the report is of one state of the cache), or a read snapshot's (`eventwatch report`).
 *  Its links lead to the session on `linkBase` (the core's: a team server's page, or the desk). */
export async function buildSessionReport(
  read: ReadTx,
  connectionId: string,
  eventSessionId: string,
  now: number,
  linkBase: LinkBase = { kind: 'desk' }
): Promise<SessionReport | null> {
  const past = await read.sessions.past({ connectionId, search: eventSessionId, includeLive: true, sort: 'started', limit: 1000 })
  const row = past.rows.find((r) => r.eventSessionId === eventSessionId)
  if (!row) return null
  const verdicts = await loadVerdicts(read, [connectionId])
  const session = verdicts.of(row)
  const story = await judgedStory(read, verdicts, connectionId, eventSessionId, TIMELINE_POINTS)
  // Only snapshots of polls made while it was live: the service's figures after its end are no audience.
  const live = { to: row.endedObservedAt === null ? undefined : Date.parse(row.endedObservedAt) }
  const timeline = await timelineOf(read, verdicts, connectionId, eventSessionId, story, live)
  const sites = siteNameBookOf(await read.sites.names())
  const whereItHurt: [BreakdownDimension, ReportGroup[]][] = []
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    whereItHurt.push([dimension, await worstGroups(read, verdicts, sites, connectionId, eventSessionId, dimension)])
  }
  const alerts = await read.alerts.list({ connectionId, eventSessionId, historyHours: ALL_HISTORY_HOURS, limit: 1000 }, now)
  const snapshots = (await read.snapshots.chart(connectionId, eventSessionId, { ...live, maxPoints: 1 })).total
  const lowest = timeline.points.reduce<ReportPoint | null>(
    (worst, p) => (p.reliability !== null && (worst === null || p.reliability < (worst.reliability ?? Infinity)) ? p : worst),
    null
  )
  const link = alertLink(linkBase, { connectionId, eventSessionId })
  return {
    generatedAt: new Date(now).toISOString(),
    link,
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
      snapshots
    },
    whereItHurt: Object.fromEntries(whereItHurt) as Record<BreakdownDimension, ReportGroup[]>,
    alerts: alerts
      .map(({ rule, severity, state, summary, firedAt, resolvedAt, endReason, endKind, transitions }) => ({
        rule, severity, state, summary, firedAt, resolvedAt, endReason, endKind,
        acknowledgements: transitions.filter((t) => t.state === 'acknowledged').map((t) => ({ by: t.by ?? null, at: t.at, note: t.note })),
        link
      }))
      .sort((a, b) => (a.firedAt ?? '').localeCompare(b.firedAt ?? '')),
    timeline,
    units: await reportUnits(read)
  }
}

/** The snapshots when there are enough to draw, else the viewer list's story. */
async function timelineOf(
  read: ReadTx,
  verdicts: Verdicts,
  connectionId: string,
  eventSessionId: string,
  story: Awaited<ReturnType<typeof judgedStory>>,
  live: { to?: number }
): Promise<SessionReport['timeline']> {
  const chart = await read.snapshots.chart(connectionId, eventSessionId, { ...live, maxPoints: TIMELINE_POINTS })
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

async function worstGroups(
  read: ReadTx,
  verdicts: Verdicts,
  sites: Map<number, string>,
  connectionId: string,
  eventSessionId: string,
  dimension: BreakdownDimension
): Promise<ReportGroup[]> {
  return (await read.viewers.breakdown(connectionId, eventSessionId, dimension))
    .slice(0, WORST_GROUPS)
    .map((row) => {
      const { reliability, health } = verdicts.judge(connectionId, eventSessionId, row.avgReliability)
      return { key: row.key, name: breakdownKeyName(sites, dimension, row.key), viewers: row.viewers, reliability, health, rebufferingRatio: row.rebufferingRatio, cdnErrorRate: row.cdnErrorRate }
    })
}

async function reportUnits(read: ReadTx): Promise<SessionReport['units']> {
  const display = await read.settings.get('display')
  const units = unitsOf(display, detectsUnits(display) ? await read.viewers.unitSample() : [])
  return { traffic: units.trafficUnit.value, viewerTime: units.viewerTimeUnit.value }
}
