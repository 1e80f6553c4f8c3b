// The webhooks concern of the Store: the webhooks and their outbox, the deliveries waiting to go
// out (one at a time per webhook, in the order they were queued).
import type { WebhookEvent, WebhookSettings } from '../../../../shared/webhooks'
import type { OutboxItem, OutboxStats, WebhookRecord } from '../webhooks'

export type { OutboxItem, OutboxStats, WebhookRecord }

export interface NewDelivery {
  webhookId: string
  idempotencyKey: string
  event: WebhookEvent
  alertId: number | null
  body: string
}

export interface WebhookReads {
  list(): Promise<WebhookRecord[]>
  get(id: string): Promise<WebhookRecord | null>
  findByName(name: string): Promise<WebhookRecord | null>
  /** Each webhook's oldest waiting delivery: when it is due, soonest first. */
  outboxHeads(): Promise<{ webhookId: string; dueAt: number }[]>
  /** The webhook's oldest waiting delivery if it is due at `now`, else null. */
  dueHead(webhookId: string, now: number): Promise<OutboxItem | null>
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
  delivered(id: number, now: number): Promise<void>
  /** A failed attempt: retried at `retryAt`, or given up when it is null. */
  failed(id: number, error: string, now: number, retryAt: number | null): Promise<void>
  /** Delivered and given-up deliveries older than `before` go (the outbox is not a history); how many went. */
  prune(before: number): Promise<number>
}
