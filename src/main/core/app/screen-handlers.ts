// The operator's screens' requests: named queries over the cache only, so every one of them
// works offline. The store answers with what the service said; the verdicts (scores on 0–100,
// health under the session's levels) are added here, once. Arguments are validated by the
// contract before they get here.
import type { RequestHandlers } from '../../../shared/contract'
import type { Db } from '../store/db'
import { exportChunk, viewerDetail } from '../store/export-chunks'
import { breakdown, pastSessions, snapshotsForChart, viewerPage } from '../store/queries'
import { isoOrNull } from '../store/queries/sql'
import { connectionScales } from '../store/reliability-scales'
import { newestPollAt } from '../store/sessions'
import { breakdownKeyName, listSiteNames, setSiteName, siteNameBook } from '../store/site-names'
import { openSiteAlerts } from '../store/alerts'
import { reportHtml } from '../report/report-html'
import { judgedStory } from './judged-story'
import { buildSessionReport } from './session-report'
import { Verdicts } from './verdicts'

type ScreenHandlers = Pick<
  RequestHandlers,
  | 'sessionChart' | 'sessionStory' | 'sessionReport' | 'liveTrends' | 'viewerPage' | 'viewerDetail' | 'breakdown' | 'pastSessions'
  | 'exportChunk' | 'listSiteNames' | 'setSiteName'
>

const ms = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso))

/** Points per sparkline when the screen does not say: one a minute over the hour. */
const TREND_POINTS = 60

export interface ScreenDeps {
  /** The connections being polled now: History says which sessions nothing watches any more. */
  polled(): readonly string[]
  /** Whether a real (not demo) connection is polled now. */
  realConnectionPolled(): boolean
}

export function screenHandlers(db: Db, deps: ScreenDeps): ScreenHandlers {
  const chart = (verdicts: Verdicts, connectionId: string, eventSessionId: string, options: { from?: number; maxPoints?: number }) => {
    const series = snapshotsForChart(db, connectionId, eventSessionId, options)
    return { ...series, points: series.points.map((p) => verdicts.point(connectionId, p)) }
  }
  return {
    sessionChart: ({ connectionId, eventSessionId, from, maxPoints }) =>
      chart(new Verdicts(db), connectionId, eventSessionId, { from: ms(from), maxPoints }),
    sessionStory: ({ connectionId, eventSessionId, maxPoints }) => judgedStory(db, new Verdicts(db), connectionId, eventSessionId, maxPoints),
    sessionReport: ({ connectionId, eventSessionId, format }) => {
      const report = buildSessionReport(db, connectionId, eventSessionId, Date.now())
      if (!report) return null
      return { text: format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportHtml(report) }
    },
    liveTrends: ({ sessions, from, maxPoints }) => {
      const verdicts = new Verdicts(db)
      const options = { from: ms(from), maxPoints: maxPoints ?? TREND_POINTS }
      return {
        trends: sessions.map(({ connectionId, eventSessionId }) => ({
          connectionId,
          eventSessionId,
          points: chart(verdicts, connectionId, eventSessionId, options).points
        }))
      }
    },
    viewerPage: ({ connectionId, eventSessionId, ...query }) => {
      const verdicts = new Verdicts(db)
      const page = viewerPage(db, connectionId, eventSessionId, query)
      const sites = siteNameBook(db)
      return {
        ...page,
        rows: page.rows.map((row) => ({
          ...row,
          siteName: row.siteCode === null ? null : (sites.get(row.siteCode) ?? null),
          ...verdicts.judge(connectionId, eventSessionId, row.reliabilityScore)
        }))
      }
    },
    viewerDetail: ({ connectionId, eventSessionId, viewerId }) => {
      const viewer = viewerDetail(db, connectionId, eventSessionId, viewerId)
      if (!viewer) return null
      const raw = typeof viewer.reliabilityScore === 'number' ? viewer.reliabilityScore : null
      return { viewer, ...new Verdicts(db).judge(connectionId, eventSessionId, raw) }
    },
    breakdown: ({ connectionId, eventSessionId, dimension }) => {
      const verdicts = new Verdicts(db)
      const sites = siteNameBook(db)
      const alerts = dimension === 'site' ? openSiteAlerts(db, connectionId, eventSessionId) : new Map()
      return breakdown(db, connectionId, eventSessionId, dimension).map((row) => {
        const { reliability, health } = verdicts.judge(connectionId, eventSessionId, row.avgReliability)
        const alert = (row.key === null ? undefined : alerts.get(row.key)) ?? null
        return { ...row, name: breakdownKeyName(sites, dimension, row.key), avgReliability: reliability, health, alert }
      })
    },
    pastSessions: ({ from, to, ...query }) => {
      const scales = connectionScales(db)
      const verdicts = new Verdicts(db, scales)
      const polled = new Set(deps.polled())
      const page = pastSessions(db, {
        ...query,
        from: ms(from),
        to: ms(to),
        // Once a real connection is polled, the demo's sessions stay out unless asked for by name.
        excludeDemo: query.connectionId === undefined && deps.realConnectionPolled(),
        scaledConnectionIds: [...scales.values()].filter((s) => s.value === '0-1').map((s) => s.connectionId)
      })
      return {
        ...page,
        rows: page.rows.map((row) => ({ ...verdicts.of(row), watched: polled.has(row.connectionId) })),
        cachedAsOf: isoOrNull(newestPollAt(db))
      }
    },
    exportChunk: (query) => exportChunk(db, query),
    listSiteNames: () => listSiteNames(db),
    setSiteName: ({ code, name }) => {
      setSiteName(db, code, name)
      return listSiteNames(db)
    }
  }
}
