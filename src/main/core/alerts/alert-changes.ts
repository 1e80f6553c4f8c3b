// An alert change is one unit of work (docs/units-of-work.md): the change, the outbox rows of the
// webhook events it announces and, for an operator's change, its audit row commit in one
// transaction (`store.withTransaction`), so a crash leaves all of them or none. Nobody hears of it
// before the commit: the push and the deliverer's wake-up come after.
import type { Fence } from '../store/interface/leases'
import type { Store, Tx } from '../store/interface/store'
import type { Applied } from './apply'
import { announcementOf, type Announcement } from './page'

/** Where the webhook events of an alert change are queued (core/webhooks/outbox.ts). */
export interface AlertOutbox {
  /** Inside the change's unit of work (`tx`): queues what it announces; returns how many
   *  deliveries. What it throws rolls the change back. */
  queue(tx: Tx, announcement: Announcement, at: { now: number; connectionsPolled: number }): Promise<number>
  /** After the commit of a change that queued deliveries: send them now. */
  queued(): void
}

/** No webhooks wired: the CLI's own sync, tests of the rules alone. */
export const noOutbox: AlertOutbox = { queue: async () => 0, queued: () => undefined }

export interface CommittedChange {
  applied: Applied
  /** What the push carries, read in the transaction the outbox rows were queued from. */
  announcement: Announcement
}

export class AlertChanges {
  constructor(
    private readonly store: Store,
    private readonly outbox: AlertOutbox = noOutbox,
    /** How many connections are polled: a session named in a webhook names its connection when several are. */
    private readonly connectionsPolled: () => number = () => 1
  ) {}

  /**
   * Makes `change` (its writes through `tx`), queues the webhook events it announces and writes
   * `alongside` (an audit row, what was judged), all in one unit of work; any of them throwing
   * rolls back every one. Both await only their `tx`. `fence`: the lease of the connection whose
   * poll is judged, where servers share connections by lease (a holder that lost it writes nothing).
   */
  async commit(
    now: number,
    change: (tx: Tx) => Promise<Applied>,
    alongside?: (tx: Tx) => Promise<void> | void,
    fence?: Fence
  ): Promise<CommittedChange> {
    let queued = 0
    const committed = await this.store.withTransaction(async (tx): Promise<CommittedChange> => {
      const applied = await change(tx)
      const announcement = await announcementOf(tx, applied, now)
      queued = await this.outbox.queue(tx, announcement, { now, connectionsPolled: this.connectionsPolled() })
      await alongside?.(tx)
      return { applied, announcement }
    }, fence ? { fence } : {})
    if (queued > 0) this.outbox.queued()
    return committed
  }
}
