// Live sessions and the poller's status, kept current from the core's pushes.
import type { AppClient } from '../../../../shared/client'
import type { LiveSession, Status } from '../../../../shared/domain'

export class LiveStore {
  sessions = $state<LiveSession[]>([])
  status = $state<Status | null>(null)
  /** Why the last request to the host failed, if it did. */
  error = $state<string | null>(null)
  loaded = $state(false)
  /** Viewer counts of the previous update, to show the direction of change. */
  previousViewers = $state<Record<string, number>>({})

  private client: AppClient | null = null

  connect(client: AppClient): () => void {
    this.client = client
    const offSessions = client.on('sessionsChanged', () => void this.refresh())
    const offStatus = client.on('statusChanged', (status) => (this.status = status))
    void this.refresh()
    void this.refreshStatus()
    return () => {
      offSessions()
      offStatus()
    }
  }

  async refresh(): Promise<void> {
    if (!this.client) return
    const result = await this.client.request('listLiveSessions', {})
    if (!result.ok) {
      this.error = result.error.message
      return
    }
    const previous: Record<string, number> = {}
    for (const s of this.sessions) previous[key(s)] = s.viewersCount
    this.previousViewers = previous
    this.sessions = result.value
    this.error = null
    this.loaded = true
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
