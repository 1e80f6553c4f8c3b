// One session's drill-down: its record (live or past), its charts' points and its breakdowns,
// all read from the cache, so a past session works offline. One instance per open session
// (SessionView creates it; App remounts the view for each session).
import type { AppClient } from '../../../../shared/client'
import type { LiveSession } from '../../../../shared/domain'
import type { BreakdownDimension, BreakdownRow, ChartSeries, PastSession, SessionKey } from '../../../../shared/screens'
import type { SessionStory } from '../../../../shared/session-story'

/** Points per chart: about one per pixel of a wide chart. */
export const CHART_POINTS = 1000
/** Buckets of a story chart: each bucket is a sweep's worth of work, and 300 read well. */
export const STORY_POINTS = 300

export class SessionStore {
  /** The live record (null once the cache has no such session). */
  session = $state<LiveSession | null>(null)
  /** The cached summary: peak viewers and when the end was observed. */
  summary = $state<PastSession | null>(null)
  loaded = $state(false)
  chart = $state<ChartSeries | null>(null)
  /** The audience over time from the cached viewer list; null when none is cached, undefined until asked. */
  story = $state<SessionStory | undefined>(undefined)
  dimension = $state<BreakdownDimension>('site')
  breakdown = $state<BreakdownRow[] | null>(null)
  error = $state<string | null>(null)
  refreshing = $state(false)
  refreshMessage = $state<string | null>(null)
  private breakdownRequest = 0

  constructor(
    private readonly client: AppClient,
    readonly key: SessionKey
  ) {}

  get eventName(): string | null {
    return this.session?.eventName ?? this.summary?.eventName ?? null
  }

  get isLive(): boolean {
    return this.session !== null && !this.session.hasEnded
  }

  async load(): Promise<void> {
    await Promise.all([this.loadRecord(), this.loadChart(), this.loadStory(), this.loadBreakdown(this.dimension)])
  }

  async loadRecord(): Promise<void> {
    const [record, past] = await Promise.all([
      this.client.request('getSession', this.key),
      this.client.request('pastSessions', {
        connectionId: this.key.connectionId,
        search: this.key.eventSessionId,
        includeLive: true,
        sort: 'started',
        limit: 20
      })
    ])
    if (record.ok) this.session = record.value
    else this.error = record.error.message
    if (past.ok) this.summary = past.value.rows.find((r) => r.eventSessionId === this.key.eventSessionId) ?? null
    this.loaded = true
  }

  async loadChart(): Promise<void> {
    const result = await this.client.request('sessionChart', { ...this.key, maxPoints: CHART_POINTS })
    if (result.ok) this.chart = result.value
    else this.error = result.error.message
  }

  /** After load, again whenever a newer viewer list is stored. */
  async loadStory(): Promise<void> {
    const result = await this.client.request('sessionStory', { ...this.key, maxPoints: STORY_POINTS })
    if (result.ok) this.story = result.value
    else this.error = result.error.message
  }

  async loadBreakdown(dimension: BreakdownDimension): Promise<void> {
    this.dimension = dimension
    const request = ++this.breakdownRequest
    const result = await this.client.request('breakdown', { ...this.key, dimension })
    if (request !== this.breakdownRequest) return // the operator picked another dimension meanwhile
    if (result.ok) this.breakdown = result.value
    else this.error = result.error.message
  }

  /** Asks the core for the session now (record, snapshot, viewers), then reloads what shows it. */
  async refresh(): Promise<boolean> {
    this.refreshing = true
    this.refreshMessage = null
    try {
      const result = await this.client.request('refreshSession', this.key)
      if (!result.ok) {
        this.refreshMessage = `Refresh failed: ${result.error.message}`
        return false
      }
      await this.load()
      return true
    } finally {
      this.refreshing = false
    }
  }
}
