// Live sessions and the poller's status, kept current from the core's pushes, and each live
// session's last hour of snapshots for the trend sparklines and the traffic rate.
//
// The board is read once (listLiveSessions); from then on every sessionsChanged push patches it:
// the rows it carries replace theirs, the rows that left go, and each row's newest snapshot is
// appended to its trend. Trends are fetched only while Live or the wall is on screen (showTrends),
// all in ONE liveTrends request when a screen opens and, later, one batched request for the
// sessions that appeared since: a poll costs no request, whatever the number of sessions.
import type { AppClient } from '../../../../shared/client'
import type { ChartPoint } from '../../../../shared/chart-point'
import type { LiveBoard, LiveSession, SessionsChanged, Status } from '../../../../shared/domain'
import { hourBefore } from '../../../../shared/live-metrics'
import type { LiveSortKey } from '../../../../shared/live-order'
import { sessionKey, type SessionKey } from '../../../../shared/schema-parts'
import { patchSessions } from '../../../../shared/live-board'
import { boardPushStep, stampOf, type Revised } from '../../../../shared/revisions'
import { appendPoint, keepTrends, TREND_WINDOW_MS, TrendQueue, withFetched } from '../live-patch'

/** Wait this long before asking for new sessions' trends: sessions appear in bursts. */
const TREND_DEBOUNCE_MS = 400
/** Points per fetched trend: one a minute over the hour (pushes then add one per poll). */
const TREND_POINTS = 60
/** liveTrends takes at most this many sessions at once (LiveTrendsArgsSchema). */
const TRENDS_PER_REQUEST = 500

export class LiveStore {
  sessions = $state<LiveSession[]>([])
  status = $state<Status | null>(null)
  /** Why the last request to the host failed, if it did. */
  error = $state<string | null>(null)
  loaded = $state(false)
  /** The last hour of each live session's snapshots, by sessionKey(); absent until known. */
  trends = $state<Record<string, ChartPoint[]>>({})
  /** The live table's order: kept here so it survives a visit to a drill-down. */
  order = $state<{ key: LiveSortKey; descending: boolean }>({ key: 'trouble', descending: false })
  /** The row whose drill-down was opened last, to give it focus back on return. */
  lastOpened = $state<string | null>(null)

  private client: AppClient | null = null
  /** The board revision (and its epoch) the rows are current with; null until read. */
  private held: Revised | null = null
  /** Pushes that came while the board was being read, applied over it once it answers. */
  private backlog: SessionsChanged[] = []
  private loading = false
  /** How many screens show trends now (Live, the wall). */
  private watchers = 0
  /** Which sessions' trends are still to be asked for. */
  private readonly queue = new TrendQueue()
  private trendTimer: ReturnType<typeof setTimeout> | null = null
  private trendsInFlight = false

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether the core says what is shown of this connection is current (true until it says otherwise). */
  connectionCurrent(connectionId: string): boolean {
    return this.status?.connections.find((c) => c.connectionId === connectionId)?.current ?? true
  }

  connect(client: AppClient): () => void {
    this.client = client
    const offSessions = client.on('sessionsChanged', (change) => this.receive(change))
    const offStatus = client.on('statusChanged', (status) => (this.status = status))
    void this.load()
    void this.refreshStatus()
    return () => {
      offSessions()
      offStatus()
      this.clearTimer()
    }
  }

  /** Reads the whole board: at start, after a failed read, or when pushes were missed. */
  async load(): Promise<void> {
    if (!this.client || this.loading) return
    this.loading = true
    const result = await this.client.request('listLiveSessions', {})
    this.loading = false
    if (!result.ok) {
      this.error = result.error.message
      this.backlog = []
      return
    }
    this.error = null
    this.accept(result.value)
  }

  /** A screen that shows trends (Live, the wall) is on screen until the returned function is called. */
  showTrends(): () => void {
    this.watchers++
    if (this.watchers === 1) {
      // Trends went stale while nothing showed them: ask again for every session, in one request.
      this.queue.restart()
      this.queue.want(this.sessions)
      this.flushTrends()
    }
    let released = false
    return () => {
      if (released) return
      released = true
      this.watchers--
      if (this.watchers === 0) {
        this.clearTimer()
        this.queue.clearWaiting()
      }
    }
  }

  async refreshStatus(): Promise<void> {
    if (!this.client) return
    const result = await this.client.request('getStatus', {})
    if (result.ok) this.status = result.value
    else this.error = result.error.message
  }

  async togglePause(): Promise<void> {
    if (!this.client) return
    const result = await this.client.request('setPaused', { paused: !(this.status?.paused ?? false) })
    if (result.ok) this.status = result.value
    else this.error = result.error.message
  }

  async refreshNow(): Promise<void> {
    if (!this.client) return
    const result = await this.client.request('refreshNow', {})
    if (!result.ok) this.error = result.error.message
  }

  private accept(board: LiveBoard): void {
    this.sessions = board.sessions
    this.held = stampOf(board)
    this.loaded = true
    this.trends = keepTrends(this.trends, board.sessions)
    const backlog = this.backlog
    this.backlog = []
    for (const change of backlog) this.receive(change)
    if (this.watchers > 0 && this.queue.want(this.sessions)) this.flushTrends()
  }

  private receive(change: SessionsChanged): void {
    if (this.loading) {
      this.backlog.push(change)
      return
    }
    // Not read yet (the first read failed), pushes were missed (a reconnect), or a new epoch (the
    // core restarted): read it all.
    const step = this.loaded ? boardPushStep(this.held, change) : 'reread'
    if (step === 'reread') void this.load()
    if (step === 'apply') this.apply(change)
  }

  private apply(change: SessionsChanged): void {
    this.held = stampOf(change)
    this.sessions = patchSessions(this.sessions, change)
    const from = this.now() - TREND_WINDOW_MS
    const trends = { ...this.trends }
    for (const key of change.removed.map(sessionKey)) delete trends[key]
    this.queue.drop(change.removed)
    for (const row of change.rows) {
      const key = sessionKey(row)
      if (row.latestPoint) trends[key] = appendPoint(trends[key] ?? [], row.latestPoint, from)
    }
    this.trends = trends
    if (this.watchers > 0 && this.queue.want(change.rows)) this.scheduleTrends()
  }

  private scheduleTrends(): void {
    if (this.trendTimer) return
    this.trendTimer = setTimeout(() => {
      this.trendTimer = null
      this.flushTrends()
    }, TREND_DEBOUNCE_MS)
  }

  private clearTimer(): void {
    if (this.trendTimer) clearTimeout(this.trendTimer)
    this.trendTimer = null
  }

  /** Fetches the wanted trends, a batch per request; one batch at a time. */
  private flushTrends(): void {
    if (!this.client || !this.loaded || this.trendsInFlight || this.queue.size === 0) return
    const batch = this.queue.take(TRENDS_PER_REQUEST)
    this.trendsInFlight = true
    void this.fetchTrends(this.client, batch).finally(() => {
      this.trendsInFlight = false
      if (this.watchers > 0 && this.queue.size > 0) this.flushTrends()
    })
  }

  private async fetchTrends(client: AppClient, batch: SessionKey[]): Promise<void> {
    const result = await client.request('liveTrends', { sessions: batch, from: hourBefore(this.now()), maxPoints: TREND_POINTS })
    if (!result.ok) {
      // Asked again at the session's next push, or when a screen opens again; the sparklines
      // keep what they had meanwhile.
      this.queue.failed(batch)
      return
    }
    this.trends = withFetched(this.trends, result.value.trends, this.sessions)
  }
}

export const live = new LiveStore()
