// The sessions and snapshots concern of the Store: what each poll saw, one row per session and
// one snapshot per session per poll.
import type { ExportChunk } from '../../../../shared/screens'
import type { EventSessionRecord } from '../../api/schemas'
import type { Page, PastSession, PastSessionsQuery } from '../queries/past-sessions'
import type { ChartOptions, ChartSeries } from '../queries/snapshots-chart'
import type { SessionRow, SnapshotRow } from '../sessions'

export type { SessionRow, SnapshotRow }

export interface SessionReads {
  /** Live sessions (of one connection, or of all), as the board reads them. */
  live(connectionId?: string): Promise<SessionRow[]>
  row(connectionId: string, eventSessionId: string): Promise<SessionRow | null>
  liveIds(connectionId: string): Promise<string[]>
  /** The newest poll's time (of one connection, or of all); null before the first. */
  newestPollAt(connectionId?: string): Promise<number | null>
  /** A page of past sessions: at most the query's limit (1,000 at most) rows. */
  past(query: PastSessionsQuery): Promise<Page<PastSession>>
  /** How many sessions are cached, and how many of them are live (every connection's). */
  counts(): Promise<{ stored: number; live: number }>
  /** The session as `eventwatch export sessions` writes it (the API's field names); null when not cached. */
  exported(connectionId: string, eventSessionId: string): Promise<Record<string, unknown> | null>
  /** Every session as `exported` gives it, a page at a time: oldest start first, at most `limit`
   *  (MAX_PAGE at most) from `offset`. */
  exportedPage(query: { offset: number; limit: number }): Promise<Record<string, unknown>[]>
}

export interface SessionStore extends SessionReads {
  /** A page of the service's session list, upserted; an older record never replaces a newer one. */
  storeList(connectionId: string, records: EventSessionRecord[], polledAt: number): Promise<void>
  /** One live session's fresh record and its snapshot, together. */
  storeSnapshot(connectionId: string, record: EventSessionRecord, polledAt: number): Promise<void>
}

export interface SnapshotReads {
  /** Taken at or after `since`, oldest first: the alert rules' windows. */
  since(connectionId: string, eventSessionId: string, since: number): Promise<SnapshotRow[]>
  latest(connectionId: string, eventSessionId: string): Promise<SnapshotRow | null>
  /** A chart's points: at most `maxPoints` (buckets when there are more snapshots). */
  chart(connectionId: string, eventSessionId: string, options?: ChartOptions): Promise<ChartSeries>
  /** The session's snapshots as `eventwatch export snapshots` writes them, a window at a time
   *  (oldest first, at most MAX_PAGE); `total` counts them all. */
  exportWindow(query: { connectionId: string; eventSessionId: string; offset: number; limit: number }): Promise<ExportChunk>
}
