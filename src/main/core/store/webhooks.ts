// Named queries over webhooks and their outbox: the only place their SQL lives.
import { randomUUID } from 'node:crypto'
import type { WebhookEvent, WebhookFormat, WebhookSettings } from '../../../shared/webhooks'
import type { Db } from './db'
import { statement } from './statements'

export interface WebhookRecord {
  id: string
  name: string
  /** The URL without its query when `queryInKeychain` (the query is a secret); else the whole URL. */
  url: string
  queryInKeychain: boolean
  format: WebhookFormat
  signed: boolean
}

interface WebhookRow {
  id: string
  name: string
  url: string
  url_query_in_keychain: number
  format: WebhookFormat
  signed: number
}

const SELECT = 'SELECT id, name, url, url_query_in_keychain, format, signed FROM webhooks'
const toRecord = (r: WebhookRow): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  queryInKeychain: r.url_query_in_keychain === 1,
  format: r.format,
  signed: r.signed === 1
})

export function listWebhooks(db: Db): WebhookRecord[] {
  return (statement(db, `${SELECT} ORDER BY name COLLATE NOCASE`).all() as WebhookRow[]).map(toRecord)
}

export function getWebhook(db: Db, id: string): WebhookRecord | null {
  const row = statement(db, `${SELECT} WHERE id = ?`).get(id) as WebhookRow | undefined
  return row ? toRecord(row) : null
}

export function findWebhookByName(db: Db, name: string): WebhookRecord | null {
  const row = statement(db, `${SELECT} WHERE name = ? COLLATE NOCASE`).get(name.trim()) as WebhookRow | undefined
  return row ? toRecord(row) : null
}

/** `settings.url` is what the row keeps: without the query when `queryInKeychain`. */
export function insertWebhook(
  db: Db,
  settings: WebhookSettings,
  kept: { signed: boolean; queryInKeychain: boolean },
  now: number,
  id: string = randomUUID()
): WebhookRecord {
  statement(db, 'INSERT INTO webhooks (id, name, url, url_query_in_keychain, format, signed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    settings.name,
    settings.url,
    kept.queryInKeychain ? 1 : 0,
    settings.format,
    kept.signed ? 1 : 0,
    now
  )
  return getWebhook(db, id) as WebhookRecord
}

/** Its queued deliveries go with it (ON DELETE CASCADE). */
export function deleteWebhook(db: Db, id: string): boolean {
  return statement(db, 'DELETE FROM webhooks WHERE id = ?').run(id).changes > 0
}

export interface OutboxItem {
  id: number
  webhookId: string
  idempotencyKey: string
  event: WebhookEvent
  body: string
  /** Where under the webhook's URL it goes (Opsgenie's acknowledge and close); null: the URL itself. */
  path: string | null
  attempts: number
  createdAt: number
}

/** Queues one delivery; false when that key was queued for that webhook already (sent once). */
export function enqueueDelivery(
  db: Db,
  item: { webhookId: string; idempotencyKey: string; event: WebhookEvent; alertId: number | null; body: string; path?: string | null },
  now: number
): boolean {
  return (
    statement(
      db,
      `INSERT INTO webhook_outbox (webhook_id, idempotency_key, event, alert_id, body, path, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (webhook_id, idempotency_key) DO NOTHING`
    ).run(item.webhookId, item.idempotencyKey, item.event, item.alertId, item.body, item.path ?? null, now, now).changes > 0
  )
}

// A webhook's deliveries go out in the order they were queued (an alert's fire before its
// resolution), one at a time: only its oldest waiting delivery, its head, is ever claimed and sent.
const WAITING = 'delivered_at IS NULL AND given_up_at IS NULL'

/** Who holds a delivery and until when (host ms, as `next_attempt_at`): the pair names one claim. */
export interface Claim {
  by: string
  until: number
}

export interface ClaimedDelivery extends OutboxItem {
  claim: Claim
}

export interface OutboxHead {
  webhookId: string
  dueAt: number
  /** When the claim on it runs out; null when none was taken. Past `now`, it no longer stands. */
  claimedUntil: number | null
}

/** Each webhook's head: when it is due, soonest first. */
export function outboxHeads(db: Db): OutboxHead[] {
  return statement(
    db,
    `SELECT webhook_id AS webhookId, next_attempt_at AS dueAt, claimed_until AS claimedUntil FROM webhook_outbox
     WHERE id IN (SELECT MIN(id) FROM webhook_outbox WHERE ${WAITING} GROUP BY webhook_id)
     ORDER BY next_attempt_at, id`
  ).all() as OutboxHead[]
}

/** Deliveries waiting over every webhook, and when the oldest of them was queued. */
export function outboxPending(db: Db): { count: number; oldestQueuedAt: number | null } {
  return statement(db, `SELECT COUNT(*) AS count, MIN(created_at) AS oldestQueuedAt FROM webhook_outbox WHERE ${WAITING}`).get() as {
    count: number
    oldestQueuedAt: number | null
  }
}

/** Claims a webhook's head if it is due at `now` and unclaimed (or its claim ran out); SQLite's one writer makes it atomic. */
export function claimHeadOf(db: Db, webhookId: string, now: number, claim: Claim): ClaimedDelivery | null {
  const row = statement(
    db,
    `UPDATE webhook_outbox SET claimed_by = @by, claimed_until = @until
     WHERE id = (SELECT MIN(id) FROM webhook_outbox WHERE webhook_id = @webhookId AND ${WAITING})
       AND next_attempt_at <= @now AND (claimed_until IS NULL OR claimed_until <= @now)
     RETURNING id, webhook_id AS webhookId, idempotency_key AS idempotencyKey, event, body, path, attempts, created_at AS createdAt`
  ).get({ webhookId, now, ...claim }) as OutboxItem | undefined
  return row ? { ...row, claim: { ...claim } } : null
}

// An outcome is written only under the claim the delivery was sent under, and ends it.
const UNDER_CLAIM = `id = @id AND claimed_by = @by AND claimed_until = @until AND ${WAITING}`
const ENDS_CLAIM = 'claimed_by = NULL, claimed_until = NULL'

export function markDelivered(db: Db, delivery: Pick<ClaimedDelivery, 'id' | 'claim'>, now: number): boolean {
  return (
    statement(db, `UPDATE webhook_outbox SET delivered_at = @now, attempts = attempts + 1, last_error = NULL, ${ENDS_CLAIM} WHERE ${UNDER_CLAIM}`).run({
      id: delivery.id,
      ...delivery.claim,
      now
    }).changes > 0
  )
}

/** A failed attempt: tried again at `retryAt`, or given up on when that is null. */
export function markFailed(db: Db, delivery: Pick<ClaimedDelivery, 'id' | 'claim'>, error: string, now: number, retryAt: number | null): boolean {
  return (
    statement(
      db,
      `UPDATE webhook_outbox SET attempts = attempts + 1, last_error = @error,
         next_attempt_at = COALESCE(@retryAt, next_attempt_at), given_up_at = CASE WHEN @retryAt IS NULL THEN @now END, ${ENDS_CLAIM}
       WHERE ${UNDER_CLAIM}`
    ).run({ id: delivery.id, ...delivery.claim, error, now, retryAt }).changes > 0
  )
}

/** Ends the claims `by` holds on deliveries still waiting. */
export function releaseClaims(db: Db, by: string): number {
  return statement(db, `UPDATE webhook_outbox SET ${ENDS_CLAIM} WHERE claimed_by = ? AND ${WAITING}`).run(by).changes
}

export interface OutboxStats {
  pending: number
  failed: number
  lastDeliveredAt: number | null
  lastError: string | null
}

export function outboxStats(db: Db, webhookId: string): OutboxStats {
  const counts = statement(
    db,
    `SELECT SUM(${WAITING}) AS pending, SUM(given_up_at IS NOT NULL) AS failed,
       MAX(delivered_at) AS lastDeliveredAt FROM webhook_outbox WHERE webhook_id = ?`
  ).get(webhookId) as { pending: number | null; failed: number | null; lastDeliveredAt: number | null }
  // The newest failure still standing: an undelivered item's, or one given up on since the last success.
  const failing = statement(
    db,
    `SELECT last_error AS error FROM webhook_outbox WHERE webhook_id = ? AND delivered_at IS NULL AND last_error IS NOT NULL
     ORDER BY id DESC LIMIT 1`
  ).get(webhookId) as { error: string } | undefined
  return { pending: counts.pending ?? 0, failed: counts.failed ?? 0, lastDeliveredAt: counts.lastDeliveredAt, lastError: failing?.error ?? null }
}

/** Delivered and given-up rows older than `before` go (the outbox is not a history). */
export function pruneOutbox(db: Db, before: number): number {
  return statement(
    db,
    'DELETE FROM webhook_outbox WHERE (delivered_at IS NOT NULL AND delivered_at < ?) OR (given_up_at IS NOT NULL AND given_up_at < ?)'
  ).run(before, before).changes
}
