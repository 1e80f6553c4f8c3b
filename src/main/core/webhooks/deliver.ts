// Sends what the outbox holds. One POST per delivery, with its idempotency key and, when the
// webhook has a signing secret, an HMAC-SHA256 signature of "<timestamp>.<body>". A 2xx is
// delivered; a network failure, a timeout, 408, 429 or a 5xx is tried again later (10 s, 20 s,
// 40 s … at most an hour apart, for a day); any other answer is given up at once (a wrong URL
// does not fix itself). Every failure is kept in Diagnostics, named by the webhook.
import { createHmac } from 'node:crypto'
import type { ErrorKind } from '../../../shared/error-kinds'
import type { Timers } from '../../../shared/timers'
import { classifyNetworkError } from '../api/network-errors'
import { defaultFetch, type FetchLike } from '../net/connection-fetch'
import type { Db } from '../store/db'
import { recordDiagnostic } from '../store/diagnostics'
import { dueDeliveries, getWebhook, markDelivered, markFailed, nextDueAt, pruneOutbox, type OutboxItem, type WebhookRecord } from '../store/webhooks'

export const DELIVERY_TIMEOUT_MS = 10_000
const FIRST_RETRY_MS = 10_000
const MAX_RETRY_MS = 60 * 60_000
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000
const BATCH = 20
/** Delivered rows are kept this long (Settings shows the last delivery), then pruned. */
const KEEP_DELIVERED_MS = 7 * 24 * 60 * 60_000

export type SendOutcome =
  | { ok: true; status: number; ms: number }
  | { ok: false; retry: boolean; kind: ErrorKind; error: string }

export interface SendRequest {
  url: string
  body: string
  idempotencyKey: string
  event: string
  secret: string | null
  now: number
  fetch?: FetchLike
}

/** One POST; never throws. */
export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const started = Date.now()
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Eventwatch',
    'Idempotency-Key': req.idempotencyKey,
    'X-Eventwatch-Event': req.event
  }
  if (req.secret) {
    const timestamp = String(Math.floor(req.now / 1000))
    headers['X-Eventwatch-Timestamp'] = timestamp
    headers['X-Eventwatch-Signature'] = `sha256=${signature(req.secret, timestamp, req.body)}`
  }
  try {
    const response = await (req.fetch ?? defaultFetch())(req.url, {
      method: 'POST',
      headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS)
    })
    await response.body?.cancel().catch(() => undefined)
    const status = response.status
    if (status >= 200 && status < 300) return { ok: true, status, ms: Date.now() - started }
    const retry = status === 408 || status === 429 || status >= 500
    return { ok: false, retry, kind: status >= 500 ? 'server' : 'configuration', error: `HTTP ${status} from the receiver` }
  } catch (error) {
    const problem = classifyNetworkError(error)
    const words = problem?.message ?? (error instanceof Error ? error.message : String(error))
    return { ok: false, retry: true, kind: 'network', error: words }
  }
}

/** The signature a receiver checks: HMAC-SHA256 over "<timestamp>.<body>", hex. */
export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

export interface DelivererOptions {
  clock: () => number
  timers: Timers
  /** The webhook's signing secret (from the keychain), or null. */
  secretOf(webhookId: string): Promise<string | null>
  /** How often to look at the outbox when nothing is known to be due (ms). */
  idleCheckMs?: number
}

export class WebhookDeliverer {
  private timer: unknown
  private running: Promise<void> | null = null
  private stopped = false

  constructor(
    private readonly db: Db,
    private readonly options: DelivererOptions
  ) {}

  start(): void {
    this.schedule(0)
  }

  /** Something was queued: send it now rather than at the next look. */
  kick(): void {
    if (!this.stopped) this.schedule(0)
  }

  /** Sends every delivery due now, one after another; resolves when done. */
  async runOnce(): Promise<void> {
    this.running ??= this.drain().finally(() => {
      this.running = null
    })
    return this.running
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.options.timers.clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
  }

  private schedule(ms: number): void {
    if (this.stopped) return
    this.options.timers.clearTimeout(this.timer)
    this.timer = this.options.timers.setTimeout(() => {
      void this.runOnce().finally(() => this.scheduleNext())
    }, ms)
  }

  private scheduleNext(): void {
    const now = this.options.clock()
    const due = nextDueAt(this.db)
    const idle = this.options.idleCheckMs ?? 30_000
    this.schedule(due === null ? idle : Math.max(0, Math.min(idle, due - now)))
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return
      const now = this.options.clock()
      const due = dueDeliveries(this.db, now, BATCH)
      if (due.length === 0) break
      for (const item of due) {
        if (this.stopped) return
        await this.deliver(item)
      }
    }
    pruneOutbox(this.db, this.options.clock() - KEEP_DELIVERED_MS)
  }

  private async deliver(item: OutboxItem): Promise<void> {
    const hook = getWebhook(this.db, item.webhookId)
    if (!hook) return // removed meanwhile: its rows went with it
    const secret = hook.signed ? await this.options.secretOf(hook.id).catch(() => null) : null
    const outcome = await sendWebhook({ url: hook.url, body: item.body, idempotencyKey: item.idempotencyKey, event: item.event, secret, now: this.options.clock() })
    const now = this.options.clock()
    if (outcome.ok) return markDelivered(this.db, item.id, now)
    const retryAt = outcome.retry ? this.retryAt(item, now) : null
    markFailed(this.db, item.id, outcome.error, now, retryAt)
    this.record(hook, item, outcome, retryAt)
  }

  private retryAt(item: OutboxItem, now: number): number | null {
    if (now - item.createdAt >= GIVE_UP_AFTER_MS) return null
    return now + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** item.attempts)
  }

  private record(hook: WebhookRecord, item: OutboxItem, outcome: Extract<SendOutcome, { ok: false }>, retryAt: number | null): void {
    const then = retryAt === null ? 'given up' : `trying again in ${Math.round((retryAt - this.options.clock()) / 1000)} s`
    recordDiagnostic(this.db, {
      connectionId: null,
      at: this.options.clock(),
      kind: outcome.kind,
      endpoint: `webhook ${hook.name}`,
      message: `delivery of ${item.event} (${item.idempotencyKey}) failed: ${outcome.error}; ${then}`
    })
  }
}
