// One live session as the live screen and the wall show it: the record with the core's verdicts
// (reliability on 0–100, health), its last hour as series, its traffic rate, and whether it is stale.
import type { LiveSession } from '../../../../shared/domain'
import {
  isPollStale,
  offloadShare,
  trafficRate,
  trendDirection,
  withLatest,
  type TrafficRate,
  type TrendDirection
} from '../../../../shared/live-metrics'
import type { ChartPoint } from '../../../../shared/chart-point'
import { sessionKey } from '../../../../shared/schema-parts'
import { display } from '../../lib/stores/display.svelte'

export interface LiveRow {
  key: string
  session: LiveSession
  /** The trend's instants (ms), one per value of `viewers` and `reliability`. */
  times: number[]
  viewers: number[]
  /** On 0–100, as the core put it. */
  reliability: number[]
  viewersTrend: TrendDirection
  reliabilityTrend: TrendDirection
  rate: TrafficRate
  offload: number | null
  /** What is shown is not current: its connection is not (the core's verdict), or its own last poll is old. */
  stale: boolean
}

/**
 * `connectionCurrent`: the core's word on the session's connection (ConnectionPollStatus.current);
 * a session of a connection that is offline, failing or stale shows its last figures, marked so.
 */
export function liveRow(
  session: LiveSession,
  points: readonly ChartPoint[] | undefined,
  now: number,
  pollIntervalSeconds: number,
  connectionCurrent = true
): LiveRow {
  const series = points ?? []
  const polledAt = session.lastPolledAt === null ? NaN : Date.parse(session.lastPolledAt)
  const samples = withLatest(
    series.map((p) => ({ at: p.takenAt, cdnTraffic: p.cdnTraffic, ecdnTraffic: p.ecdnTraffic })),
    { at: polledAt, cdnTraffic: session.cdnTraffic, ecdnTraffic: session.ecdnTraffic }
  )
  const viewers = series.map((p) => p.viewersCount)
  const reliability = series.map((p) => p.reliability)
  return {
    key: sessionKey(session),
    session,
    times: series.map((p) => p.takenAt),
    viewers,
    reliability,
    viewersTrend: trendDirection(viewers, { relative: 0.02, absolute: 1 }),
    reliabilityTrend: trendDirection(reliability, { absolute: 0.5 }),
    rate: trafficRate(samples),
    offload: offloadShare(session.cdnTraffic, session.ecdnTraffic),
    stale: !connectionCurrent || isPollStale(session.lastPolledAt, now, pollIntervalSeconds)
  }
}

export const TREND_ARROW: Record<TrendDirection, string> = { up: '↗', down: '↘', flat: '→', unknown: '' }

export function formatRate(rate: TrafficRate): string {
  if (rate.kind === 'none') return rate.reason === 'reset' ? 'reset' : '—'
  return `${display.formatTraffic(rate.totalPerSecond)}/s`
}

export function formatOffload(share: number | null): string {
  return share === null ? '—' : `${share.toFixed(0)} %`
}

/** "viewers over the last hour: 1,200 to 1,450" for a sparkline's label. */
export function seriesSummary(what: string, values: readonly number[], format: (n: number) => string): string {
  const first = values[0]
  const last = values[values.length - 1]
  if (first === undefined || last === undefined) return `${what} over the last hour: no data yet`
  if (values.length === 1) return `${what} over the last hour: ${format(first)}`
  return `${what} over the last hour: ${format(first)} to ${format(last)}`
}

export const formatScore = (n: number): string => n.toFixed(1)

/** Sparkline scales: a few viewers or a tenth of a point should not look like a cliff. */
export const VIEWERS_MIN_SPAN = (values: readonly number[]): number => Math.max(10, 0.1 * Math.max(0, ...values))
export const RELIABILITY_MIN_SPAN = 5
