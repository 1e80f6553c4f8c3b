// The webhooks and their outbox of a Tx on PostgreSQL: store/webhooks.ts's queries in
// PostgreSQL's dialect. A webhook's deliveries go out in the order they were queued, one at a
// time: only its oldest waiting delivery, its head, is ever sent. (Claims with SKIP LOCKED, for
// several deliverers, are plan step 7.)
import type { WebhookFormat } from '../../../../shared/webhooks'
import type { OutboxItem, OutboxStats, WebhookRecord, WebhookStore } from '../interface/webhooks'
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
      all<{ webhookId: string; dueAt: number }>(
        read,
        `SELECT webhook_id AS "webhookId", next_attempt_at AS "dueAt" FROM webhook_outbox
         WHERE id IN (SELECT min(id) FROM webhook_outbox WHERE ${WAITING} GROUP BY webhook_id)
         ORDER BY next_attempt_at, id`
      ),
    async dueHead(webhookId, now) {
      const row = await one<OutboxItem & { dueAt: number }>(
        read,
        `SELECT id, webhook_id AS "webhookId", idempotency_key AS "idempotencyKey", event, body, attempts,
           created_at AS "createdAt", next_attempt_at AS "dueAt"
         FROM webhook_outbox WHERE webhook_id = $1 AND ${WAITING} ORDER BY id LIMIT 1`,
        [webhookId]
      )
      return row && row.dueAt <= now ? row : null
    },
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
        `INSERT INTO webhook_outbox (webhook_id, idempotency_key, event, alert_id, body, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (webhook_id, idempotency_key) DO NOTHING`,
        [item.webhookId, item.idempotencyKey, item.event, item.alertId, item.body, now]
      )
      return count > 0
    },
    async delivered(id, now) {
      await write('UPDATE webhook_outbox SET delivered_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = $1', [id, now])
    },
    async failed(id, error, now, retryAt) {
      await write(
        `UPDATE webhook_outbox SET attempts = attempts + 1, last_error = $2,
           next_attempt_at = COALESCE($4::bigint, next_attempt_at), given_up_at = CASE WHEN $4::bigint IS NULL THEN $3::bigint END
         WHERE id = $1`,
        [id, error, now, retryAt]
      )
    },
    prune: async (before) =>
      (await write('DELETE FROM webhook_outbox WHERE (delivered_at IS NOT NULL AND delivered_at < $1) OR (given_up_at IS NOT NULL AND given_up_at < $1)', [before]))
        .count
  }
}
