// An alert change is one unit of work (docs/units-of-work.md): the change, the outbox rows of the
// webhook events it announces and, for an operator's change, its audit row commit in one
// transaction, so a crash leaves all of them or none. Nobody hears of it before the commit: the
// push and the deliverer's wake-up come after.
import type { Db } from '../store/db'
import { withTransaction } from '../store/unit-of-work'
import type { Applied } from './apply'
import { announcementOf, type Announcement } from './page'

/** Where the webhook events of an alert change are queued (core/webhooks/outbox.ts). */
export interface AlertOutbox {
  /** Inside the change's transaction: queues what it announces; returns how many deliveries.
   *  What it throws rolls the change back. */
  queue(announcement: Announcement, at: { now: number; connectionsPolled: number }): number
  /** After the commit of a change that queued deliveries: send them now. */
  queued(): void
}

/** No webhooks wired: the CLI's own sync, tests of the rules alone. */
export const noOutbox: AlertOutbox = { queue: () => 0, queued: () => undefined }

export interface CommittedChange {
  applied: Applied
  /** What the push carries, read in the transaction the outbox rows were queued from. */
  announcement: Announcement
}

export class AlertChanges {
  constructor(
    private readonly db: Db,
    private readonly outbox: AlertOutbox = noOutbox,
    /** How many connections are polled: a session named in a webhook names its connection when several are. */
    private readonly connectionsPolled: () => number = () => 1
  ) {}

  /**
   * Makes `change` (store writes, nested transactions becoming savepoints), queues the webhook
   * events it announces and writes `alongside` (an audit row), all in one transaction; any of
   * them throwing rolls back every one.
   */
  commit(now: number, change: () => Applied, alongside?: () => void): CommittedChange {
    let queued = 0
    const committed = withTransaction(this.db, (): CommittedChange => {
      const applied = change()
      const announcement = announcementOf(this.db, applied, now)
      queued = this.outbox.queue(announcement, { now, connectionsPolled: this.connectionsPolled() })
      alongside?.()
      return { applied, announcement }
    })
    if (queued > 0) this.outbox.queued()
    return committed
  }
}
