// The webhooks concern of the Store: the webhooks and their outbox, the deliveries waiting to go
// out (one at a time per webhook, in the order they were queued). A deliverer sends a delivery
// only after claiming it, so several deliverers on one database (servers, or cores on one cache
// file) send each once; only a webhook's head is ever claimed, so its order holds across them.
import type { WebhookEvent, WebhookSettings } from '../../../../shared/webhooks'
import type { Claim, ClaimedDelivery, OutboxHead, OutboxItem, OutboxStats, WebhookRecord } from '../webhooks'

export type { Claim, ClaimedDelivery, OutboxHead, OutboxItem, OutboxStats, WebhookRecord }

export interface NewDelivery {
  webhookId: string
  idempotencyKey: string
  event: WebhookEvent
  alertId: number | null
  body: string
  /** Where under the webhook's URL it goes (Opsgenie's acknowledge and close by alias); absent or null: the URL itself. */
  path?: string | null
}

export interface WebhookReads {
  list(): Promise<WebhookRecord[]>
  get(id: string): Promise<WebhookRecord | null>
  findByName(name: string): Promise<WebhookRecord | null>
  /** Each webhook's oldest waiting delivery: when it is due, soonest first, and until when it is claimed. */
  outboxHeads(): Promise<OutboxHead[]>
  stats(webhookId: string): Promise<OutboxStats>
  /** Deliveries waiting (neither delivered nor given up), over every webhook, and when the oldest was queued. */
  pending(): Promise<{ count: number; oldestQueuedAt: number | null }>
}

export interface WebhookStore extends WebhookReads {
  add(settings: WebhookSettings, kept: { signed: boolean; queryInKeychain: boolean }, id: string, now: number): Promise<WebhookRecord>
  /** Its waiting deliveries go with it. */
  remove(id: string): Promise<boolean>
  /** Queues one delivery; false when that key was queued for that webhook already (sent once). */
  enqueue(delivery: NewDelivery, now: number): Promise<boolean>
  /**
   * Claims the webhook's head for `claim.by` until `claim.until` if it is due at `now` and no claim
   * on it stands (none, or one run out by `now`); null otherwise. Deliverers claiming at the same
   * time never get the same delivery (PostgreSQL: FOR UPDATE SKIP LOCKED, no waiting for another's
   * claim; SQLite: its one writer). The claim commits with its unit, before anything is sent.
   */
  claimHead(webhookId: string, now: number, claim: Claim): Promise<ClaimedDelivery | null>
  /**
   * Records a delivery's outcome, only under the claim it was sent under: false, and nothing
   * written, when that claim no longer stands (it ran out and another deliverer took the delivery,
   * or was released). A claim run out that nobody took still records. Either ends the claim.
   */
  delivered(delivery: Pick<ClaimedDelivery, 'id' | 'claim'>, now: number): Promise<boolean>
  /** A failed attempt: retried at `retryAt`, or given up when it is null. As `delivered`, only under its claim. */
  failed(delivery: Pick<ClaimedDelivery, 'id' | 'claim'>, error: string, now: number, retryAt: number | null): Promise<boolean>
  /** Ends the claims `by` still holds (a deliverer stopping), so others need not wait for them to run out; how many. */
  release(by: string): Promise<number>
  /** Delivered and given-up deliveries older than `before` go (the outbox is not a history); how many went. */
  prune(before: number): Promise<number>
}
