// The webhook outbox as alert changes see it (alerts/alert-changes.ts): each change queues its
// deliveries inside its own unit of work (`tx.webhooks.enqueue`), so an alert is never on record
// without them; after the commit the deliverer is woken to send them now rather than at its next look.
import type { AlertsChanged } from '../../../shared/alerts'
import type { LinkBase } from '../../../shared/session-link'
import type { Tx } from '../store/interface/store'
import { enqueueAlertEvents } from './enqueue'

/** What an alert change announces, as the alerts' push carries it less the situation. */
type Announced = Omit<AlertsChanged, 'situation'>

/** Meets alerts/alert-changes.ts's AlertOutbox (webhooks rank below alerts: it is not imported). */
export class WebhookOutbox {
  private deliverer: { kick(): void } | null = null

  /** `linkBase`: where the bodies' links to a session lead, asked at each change (a server learns
   *  its port once it listens); the core decides it (AppCoreOptions.linkBase). */
  constructor(private readonly linkBase: () => LinkBase = () => ({ kind: 'desk' })) {}

  async queue(tx: Tx, announcement: Announced, at: { now: number; connectionsPolled: number }): Promise<number> {
    try {
      return await enqueueAlertEvents(tx, { ...announcement, situation: { connectionsPolled: at.connectionsPolled } }, at.now, this.linkBase())
    } catch (error) {
      // Said as what failed: the alert change that rolls back with it is reported with this.
      throw new Error(`webhook deliveries could not be queued: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
  }

  queued(): void {
    this.deliverer?.kick()
  }

  /** Who sends what is queued; until one is given (or after null) rows wait for the deliverer's start. */
  sendWith(deliverer: { kick(): void } | null): void {
    this.deliverer = deliverer
  }
}
