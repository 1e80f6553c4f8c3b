// The operator's screens' requests: named queries over the cache only, so every one of them
// works offline. The store answers with what the service said; the verdicts (scores on 0–100,
// health under the session's levels) are added here, once. Arguments are validated by the
// contract before they get here. Every read goes through the Store, a page at a time; an answer
// made of many reads (a report) reads one state of the cache, in a read-only unit.
import type { LinkBase } from '../../../shared/session-link'
import type { RequestHandlers } from '../../../shared/contract'
import type { ExportChunk } from '../../../shared/screens'
import type { ChunkQuery } from '../store/export-chunks'
import type { ReadTx, Store } from '../store/interface/store'
import { isoOrNull } from '../store/queries/sql'
import { breakdownKeyName, siteNameBookOf } from '../store/site-names'
import { reportHtml } from '../report/report-html'
import { judgedStory } from './judged-story'
import { buildSessionReport } from './session-report'
import { loadVerdicts, readScales, type Verdicts } from './verdicts'

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
  /** Where a report's links lead (the core's LinkBase); the desk's when absent. */
  linkBase?(): LinkBase
}

/** One window of an export as the drill-down's Export asks for it: never more than a page. */
async function exportWindow(read: ReadTx, { kind, ...query }: ChunkQuery): Promise<ExportChunk> {
  if (kind === 'viewers') return read.viewers.window(query)
  if (kind === 'snapshots') return read.snapshots.exportWindow(query)
  const session = await read.sessions.exported(query.connectionId, query.eventSessionId)
  const records = session === null ? [] : [session]
  return { records: records.slice(query.offset, query.offset + query.limit), total: records.length }
}

export function screenHandlers(store: Store, deps: ScreenDeps): ScreenHandlers {
  const read = store.read
  const sites = async () => siteNameBookOf(await read.sites.names())
  const chart = async (verdicts: Verdicts, connectionId: string, eventSessionId: string, options: { from?: number; maxPoints?: number }) => {
    const series = await read.snapshots.chart(connectionId, eventSessionId, options)
    return { ...series, points: series.points.map((p) => verdicts.point(connectionId, p)) }
  }
  return {
    sessionChart: async ({ connectionId, eventSessionId, from, maxPoints }) =>
      chart(await loadVerdicts(read, [connectionId]), connectionId, eventSessionId, { from: ms(from), maxPoints }),
    sessionStory: async ({ connectionId, eventSessionId, maxPoints }) =>
      judgedStory(read, await loadVerdicts(read, [connectionId]), connectionId, eventSessionId, maxPoints),
    sessionReport: async ({ connectionId, eventSessionId, format }) => {
      const report = await store.withTransaction((tx) => buildSessionReport(tx, connectionId, eventSessionId, Date.now(), deps.linkBase?.()), { readOnly: true })
      if (!report) return null
      return { text: format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportHtml(report) }
    },
    liveTrends: async ({ sessions, from, maxPoints }) => {
      const verdicts = await loadVerdicts(read, sessions.map((s) => s.connectionId))
      const options = { from: ms(from), maxPoints: maxPoints ?? TREND_POINTS }
      const trends = []
      for (const { connectionId, eventSessionId } of sessions) {
        trends.push({ connectionId, eventSessionId, points: (await chart(verdicts, connectionId, eventSessionId, options)).points })
      }
      return { trends }
    },
    viewerPage: async ({ connectionId, eventSessionId, ...query }) => {
      const [verdicts, page, names] = await Promise.all([
        loadVerdicts(read, [connectionId]),
        read.viewers.page(connectionId, eventSessionId, query),
        sites()
      ])
      return {
        ...page,
        rows: page.rows.map((row) => ({
          ...row,
          siteName: row.siteCode === null ? null : (names.get(row.siteCode) ?? null),
          ...verdicts.judge(connectionId, eventSessionId, row.reliabilityScore)
        }))
      }
    },
    viewerDetail: async ({ connectionId, eventSessionId, viewerId }) => {
      const viewer = await read.viewers.viewer(connectionId, eventSessionId, viewerId)
      if (!viewer) return null
      const raw = typeof viewer.reliabilityScore === 'number' ? viewer.reliabilityScore : null
      return { viewer, ...(await loadVerdicts(read, [connectionId])).judge(connectionId, eventSessionId, raw) }
    },
    breakdown: async ({ connectionId, eventSessionId, dimension }) => {
      const [verdicts, names, alerts, rows] = await Promise.all([
        loadVerdicts(read, [connectionId]),
        sites(),
        dimension === 'site' ? read.alerts.openAboutSites(connectionId, eventSessionId) : new Map<string, never>(),
        read.viewers.breakdown(connectionId, eventSessionId, dimension)
      ])
      return rows.map((row) => {
        const { reliability, health } = verdicts.judge(connectionId, eventSessionId, row.avgReliability)
        const alert = (row.key === null ? undefined : alerts.get(row.key)) ?? null
        return { ...row, name: breakdownKeyName(names, dimension, row.key), avgReliability: reliability, health, alert }
      })
    },
    pastSessions: async ({ from, to, ...query }) => {
      const scales = await readScales(read)
      const polled = new Set(deps.polled())
      const [page, newest] = await Promise.all([
        read.sessions.past({
          ...query,
          from: ms(from),
          to: ms(to),
          // Once a real connection is polled, the demo's sessions stay out unless asked for by name.
          excludeDemo: query.connectionId === undefined && deps.realConnectionPolled(),
          scaledConnectionIds: [...scales.values()].filter((s) => s.value === '0-1').map((s) => s.connectionId)
        }),
        read.sessions.newestPollAt()
      ])
      const verdicts = await loadVerdicts(read, page.rows.map((row) => row.connectionId), scales)
      return {
        ...page,
        rows: page.rows.map((row) => ({ ...verdicts.of(row), watched: polled.has(row.connectionId) })),
        cachedAsOf: isoOrNull(newest)
      }
    },
    exportChunk: (query) => exportWindow(read, query),
    listSiteNames: () => read.sites.names(),
    setSiteName: async ({ code, name }) => {
      await store.withTransaction((tx) => tx.sites.setName(code, name))
      return read.sites.names()
    }
  }
}
