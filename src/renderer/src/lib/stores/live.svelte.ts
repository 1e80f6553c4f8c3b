// Live sessions and the poller's status, kept current from the core's pushes, and each live
// session's last hour of snapshots for the trend sparklines and the traffic rate.
import type { AppClient } from '../../../../shared/client'
import type { LiveSession, Status } from '../../../../shared/domain'
import { hourBefore } from '../../../../shared/live-metrics'
import type { LiveSortKey } from '../../../../shared/live-order'
import type { ChartPoint } from '../../../../shared/screens'

/** Wait this long after a push before refreshing trends: pushes come in bursts. */
const TREND_DEBOUNCE_MS = 400
/** Points per sparkline: one a minute over the hour. */
const TREND_POINTS = 60

export class LiveStore {
  sessions = $state<LiveSession[]>([])
  status = $state<Status | null>(null)
  /** Why the last request to the host failed, if it did. */
  error = $state<string | null>(null)
  loaded = $state(false)
  /** The last hour of each live session's snapshots, by key(); absent until fetched. */
  trends = $state<Record<string, ChartPoint[]>>({})
  /** The live table's order: kept here so it survives a visit to a drill-down. */
  order = $state<{ key: LiveSortKey; descending: boolean }>({ key: 'trouble', descending: false })
  /** The row whose drill-down was opened last, to give it focus back on return. */
  lastOpened = $state<string | null>(null)

  private client: AppClient | null = null
  private trendTimer: ReturnType<typeof setTimeout> | null = null
  private trendsInFlight = false
  private trendsAgain = false

  connect(client: AppClient): () => void {
    this.client = client
    const offSessions = client.on('sessionsChanged', () => {
      void this.refresh()
      this.scheduleTrends()
    })
    const offStatus = client.on('statusChanged', (status) => (this.status = status))
    void this.refresh().then(() => this.refreshTrends())
    void this.refreshStatus()
    return () => {
      offSessions()
      offStatus()
      if (this.trendTimer) clearTimeout(this.trendTimer)
      this.trendTimer = null
    }
  }

  async refresh(): Promise<void> {
    if (!this.client) return
    const result = await this.client.request('listLiveSessions', {})
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    this.sessions = result.value
    this.error = null
    this.loaded = true
  }

  /** Refreshes trends soon; pushes within the debounce window share one refresh. */
  scheduleTrends(): void {
    if (this.trendTimer) clearTimeout(this.trendTimer)
    this.trendTimer = setTimeout(() => {
      this.trendTimer = null
      void this.refreshTrends()
    }, TREND_DEBOUNCE_MS)
  }

  /** At most one refresh in flight: a request meanwhile runs once more when it ends. */
  async refreshTrends(): Promise<void> {
    if (!this.client) return
    if (this.trendsInFlight) {
      this.trendsAgain = true
      return
    }
    this.trendsInFlight = true
    try {
      const client = this.client
      const from = hourBefore(Date.now())
      const sessions = this.sessions
      const results = await Promise.all(
        sessions.map((s) =>
          client.request('sessionChart', {
            connectionId: s.connectionId,
            eventSessionId: s.eventSessionId,
            from,
            maxPoints: TREND_POINTS
          })
        )
      )
      const next: Record<string, ChartPoint[]> = {}
      sessions.forEach((s, i) => {
        const result = results[i]
        // A failed request keeps what we had rather than blanking the sparkline.
        const points = result?.ok ? result.value.points : this.trends[key(s)]
        if (points) next[key(s)] = points
      })
      this.trends = next
    } finally {
      this.trendsInFlight = false
      if (this.trendsAgain) {
        this.trendsAgain = false
        void this.refreshTrends()
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
}

export const key = (s: Pick<LiveSession, 'connectionId' | 'eventSessionId'>): string =>
  `${s.connectionId}/${s.eventSessionId}`

export const live = new LiveStore()
