// One poller per data source, and the app's status as the sum of theirs: an operator sees
// the worst state and the oldest update, never a rosier picture than the truth.
import type { Status } from '../../../shared/domain'
import type { Db } from '../store/db'
import { countSessions } from '../store/sessions'
import { Poller, type PollerStatus } from '../sync/poller'
import type { DataSource } from './demo-source'
import type { EventHub } from './event-hub'

export class PollerGroup {
  private running: { source: DataSource; poller: Poller }[] = []

  constructor(
    private readonly db: Db,
    private readonly hub: EventHub,
    private readonly intervalMs: number
  ) {}

  get sources(): DataSource[] {
    return this.running.map((r) => r.source)
  }

  start(sources: DataSource[]): void {
    this.running = sources.map((source) => {
      const poller = new Poller(this.db, source.client, {
        connectionId: source.target.id,
        intervalMs: this.intervalMs,
        lookbackDays: source.lookbackDays,
        onStatus: () => this.hub.emit('statusChanged', this.status()),
        onPolled: (report) => {
          const counts = countSessions(this.db)
          this.hub.emit('sessionsChanged', {
            at: new Date(report.at).toISOString(),
            liveCount: counts.live,
            storedCount: counts.stored
          })
        }
      })
      poller.start()
      return { source, poller }
    })
  }

  /** Stops every poller (each finishes its unit of work) and releases the sources. */
  async stop(): Promise<void> {
    const stopping = this.running
    this.running = []
    await Promise.all(stopping.map((r) => r.poller.stop()))
    await Promise.all(stopping.map((r) => r.source.close()))
  }

  refreshNow(): void {
    for (const { poller } of this.running) void poller.pollOnce().catch(() => undefined)
  }

  status(): Status {
    const statuses = this.running.map((r) => r.poller.currentStatus)
    const demo = this.running.length > 0 && this.running.every((r) => r.source.isDemo)
    return {
      mode: demo ? 'demo' : 'connected',
      connectionName: this.running.map((r) => r.source.target.name).join(', ') || 'No connection',
      pollState: worstState(statuses),
      lastUpdateAt: oldestUpdate(statuses),
      lastError: statuses.find((s) => s.lastError)?.lastError ?? null,
      pollIntervalSeconds: this.intervalMs / 1000
    }
  }
}

const STATE_ORDER: PollerStatus['state'][] = ['error', 'starting', 'polling', 'stopped', 'ok']

function worstState(statuses: PollerStatus[]): PollerStatus['state'] {
  for (const state of STATE_ORDER) if (statuses.some((s) => s.state === state)) return state
  return 'stopped'
}

function oldestUpdate(statuses: PollerStatus[]): string | null {
  if (statuses.length === 0 || statuses.some((s) => s.lastUpdateAt === null)) return null
  return new Date(Math.min(...statuses.map((s) => s.lastUpdateAt as number))).toISOString()
}
