// The webhooks and their outbox of a Tx on PostgreSQL: store/webhooks.ts's queries in
// PostgreSQL's dialect. A webhook's deliveries go out in the order they were queued, one at a
// time: only its oldest waiting delivery, its head, is ever claimed and sent. Servers claim at
// the same time: a claim skips a head another is claiming (SKIP LOCKED) rather than wait for it.
import type { WebhookFormat } from '../../../../shared/webhooks'
import type { ClaimedDelivery, OutboxHead, OutboxItem, OutboxStats, WebhookRecord, WebhookStore } from '../interface/webhooks'
import { all, one, type Runners, type Sql } from './sql'

interface WebhookRow {
  id: string
  name: string
  url: string
  url_query_in_keychain: boolean
  format: WebhookFormat
  signed: boolean
}

const SELECT = 'SELECT id, name, url, url_query_in_keychain, format, signed FROM webhooks'
const WAITING = 'delivered_at IS NULL AND given_up_at IS NULL'
// An outcome is written only under the claim the delivery was sent under ($1 id, $2 by, $3 until), and ends it.
const UNDER_CLAIM = `id = $1 AND claimed_by = $2 AND claimed_until = $3 AND ${WAITING}`
const ENDS_CLAIM = 'claimed_by = NULL, claimed_until = NULL'
const claimOf = (d: Pick<ClaimedDelivery, 'id' | 'claim'>): [number, string, number] => [d.id, d.claim.by, d.claim.until]

const toRecord = (r: WebhookRow): WebhookRecord => ({
  id: r.id,
  name: r.name,
  url: r.url,
  queryInKeychain: r.url_query_in_keychain,
  format: r.format,
  signed: r.signed
})

async function get(sql: Sql, id: string): Promise<WebhookRecord | null> {
  const row = await one<WebhookRow>(sql, `${SELECT} WHERE id = $1`, [id])
  return row ? toRecord(row) : null
}

async function stats(sql: Sql, webhookId: string): Promise<OutboxStats> {
  const counts = await one<{ pending: number; failed: number; lastDeliveredAt: number | null }>(
    sql,
    `SELECT count(*) FILTER (WHERE ${WAITING}) AS pending, count(*) FILTER (WHERE given_up_at IS NOT NULL) AS failed,
       max(delivered_at) AS "lastDeliveredAt" FROM webhook_outbox WHERE webhook_id = $1`,
    [webhookId]
  )
  // The newest failure still standing: an undelivered item's, or one given up on since the last success.
  const failing = await one<{ error: string }>(
    sql,
    `SELECT last_error AS error FROM webhook_outbox WHERE webhook_id = $1 AND delivered_at IS NULL AND last_error IS NOT NULL
     ORDER BY id DESC LIMIT 1`,
    [webhookId]
  )
  return { pending: counts?.pending ?? 0, failed: counts?.failed ?? 0, lastDeliveredAt: counts?.lastDeliveredAt ?? null, lastError: failing?.error ?? null }
}

export function webhookTable({ read, write }: Runners): WebhookStore {
  return {
    list: async () => (await all<WebhookRow>(read, `${SELECT} ORDER BY lower(name)`)).map(toRecord),
    get: (id) => get(read, id),
    async findByName(name) {
      const row = await one<WebhookRow>(read, `${SELECT} WHERE lower(name) = lower($1)`, [name.trim()])
      return row ? toRecord(row) : null
    },
    async pending() {
      const row = await one<{ count: number; oldestQueuedAt: number | null }>(
        read,
        `SELECT count(*) AS count, min(created_at) AS "oldestQueuedAt" FROM webhook_outbox WHERE ${WAITING}`
      )
      return { count: row?.count ?? 0, oldestQueuedAt: row?.oldestQueuedAt ?? null }
    },
    outboxHeads: () =>
      all<OutboxHead>(
        read,
        `SELECT webhook_id AS "webhookId", next_attempt_at AS "dueAt", claimed_until AS "claimedUntil" FROM webhook_outbox
         WHERE id IN (SELECT min(id) FROM webhook_outbox WHERE ${WAITING} GROUP BY webhook_id)
         ORDER BY next_attempt_at, id`
      ),
    stats: (webhookId) => stats(read, webhookId),
    async add(settings, kept, id, now) {
      await write('INSERT INTO webhooks (id, name, url, url_query_in_keychain, format, signed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        id,
        settings.name,
        settings.url,
        kept.queryInKeychain,
        settings.format,
        kept.signed,
        now
      ])
      return (await get(write, id))!
    },
    // Its queued deliveries go with it (ON DELETE CASCADE).
    remove: async (id) => (await write('DELETE FROM webhooks WHERE id = $1', [id])).count > 0,
    async enqueue(item, now) {
      const { count } = await write(
        `INSERT INTO webhook_outbox (webhook_id, idempotency_key, event, alert_id, body, path, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (webhook_id, idempotency_key) DO NOTHING`,
        [item.webhookId, item.idempotencyKey, item.event, item.alertId, item.body, item.path ?? null, now]
      )
      return count > 0
    },
    async claimHead(webhookId, now, claim) {
      // The head is read in the statement's snapshot; the row's own conditions are checked again
      // on its newest version once locked, so a head sent meanwhile is not taken.
      const row = await one<OutboxItem>(
        write,
        `WITH head AS (
           SELECT id FROM webhook_outbox
           WHERE id = (SELECT min(id) FROM webhook_outbox WHERE webhook_id = $1 AND ${WAITING})
             AND ${WAITING} AND next_attempt_at <= $2 AND (claimed_until IS NULL OR claimed_until <= $2)
           FOR UPDATE SKIP LOCKED)
         UPDATE webhook_outbox o SET claimed_by = $3, claimed_until = $4 FROM head WHERE o.id = head.id
         RETURNING o.id, o.webhook_id AS "webhookId", o.idempotency_key AS "idempotencyKey", o.event, o.body, o.path, o.attempts,
           o.created_at AS "createdAt"`,
        [webhookId, now, claim.by, claim.until]
      )
      return row ? { ...row, claim: { ...claim } } : null
    },
    delivered: async (delivery, now) =>
      (
        await write(`UPDATE webhook_outbox SET delivered_at = $4, attempts = attempts + 1, last_error = NULL, ${ENDS_CLAIM} WHERE ${UNDER_CLAIM}`, [
          ...claimOf(delivery),
          now
        ])
      ).count > 0,
    failed: async (delivery, error, now, retryAt) =>
      (
        await write(
          `UPDATE webhook_outbox SET attempts = attempts + 1, last_error = $4,
             next_attempt_at = COALESCE($6::bigint, next_attempt_at), given_up_at = CASE WHEN $6::bigint IS NULL THEN $5::bigint END,
             ${ENDS_CLAIM}
           WHERE ${UNDER_CLAIM}`,
          [...claimOf(delivery), error, now, retryAt]
        )
      ).count > 0,
    release: async (by) => (await write(`UPDATE webhook_outbox SET ${ENDS_CLAIM} WHERE claimed_by = $1 AND ${WAITING}`, [by])).count,
    prune: async (before) =>
      (await write('DELETE FROM webhook_outbox WHERE (delivered_at IS NOT NULL AND delivered_at < $1) OR (given_up_at IS NOT NULL AND given_up_at < $1)', [before]))
        .count
  }
}
