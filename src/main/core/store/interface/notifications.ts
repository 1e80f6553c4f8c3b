// Notifications between the stores on one database (several servers, docs/scaling-plan.md
// section 3): a unit of work sends a small payload on a channel; every store listening on it
// hears it once the unit commits — never if it rolls back —, in the order the units committed.
// What was sent while a listener's connection was down is lost: it is told when it is back, and
// reads what changed from the rows. PostgreSQL has them (LISTEN/NOTIFY); SQLite has none (one
// server per file: the core that commits is the one that pushes; docs/store.md says why).
import type { NotifyChannel } from '../notify-channels'

export type { NotifyChannel }

/** The notifications of a unit of work (in `tx`). */
export interface NotificationSender {
  /** Sends `payload` on `channel` when the unit commits. A payload is an id (a revision, a
   *  connection id), at most MAX_NOTIFY_PAYLOAD_BYTES; an unknown channel or a longer payload
   *  rejects, in words. Identical ones sent in one unit may arrive once. */
  send(channel: NotifyChannel, payload: string): Promise<void>
}

export interface NotificationListener {
  /** A notification, in the order of the commits that sent it. */
  notified(payload: string): void
  /** The listening connection dropped and is back: what was sent meanwhile is lost, so read
   *  what changed. Called once per reconnection, after listening again. */
  resumed(): void
  /** The listening connection dropped (`cause`, in words); it reconnects, with back-off. Said
   *  once per outage, not at every try. */
  dropped?(cause: Error): void
}

/** Listening, on a store whose backend has notifications. */
export interface Notifications {
  /**
   * Listens on `channel`: resolves once listening, so a unit committed from then on is heard.
   * While the database cannot be reached it waits, trying again with back-off, until it can or
   * the store closes (then it rejects). Resolves to a function that stops listening.
   */
  listen(channel: NotifyChannel, listener: NotificationListener): Promise<() => Promise<void>>
}
