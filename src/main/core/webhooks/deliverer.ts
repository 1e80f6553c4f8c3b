// Sends what the outbox holds, each webhook in a lane of its own: a webhook's deliveries go one
// at a time, in the order they were queued (an alert's fire before its resolution), while the
// other webhooks' lanes go on, so a receiver that hangs until the timeout holds back only itself.
// At most `parallel` lanes run at once. A failure that may pass is tried again later (10 s, 20 s,
// 40 s … at most an hour apart, for a day), the webhook's later deliveries waiting behind it;
// any other is given up at once. Every failure is kept in Diagnostics, named by the webhook.
// The outbox is read and updated through the Store: each delivery is claimed in a unit of its own
// before it is sent (several deliverers on one database send it once: docs/webhooks.md), the
// POST happens outside any unit, and its outcome (with what Diagnostics says of a failure) is one
// unit after the response, written only if the claim still stands.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Timers } from '../../../shared/timers'
import { SecretUnreadableError } from '../secrets/sealing'
import type { DiagnosticEntry } from '../store/interface/runs'
import type { Store } from '../store/interface/store'
import type { ClaimedDelivery, OutboxItem, WebhookRecord } from '../store/interface/webhooks'
import { DELIVERY_TIMEOUT_MS, sendWebhook, type SendOutcome } from './deliver'
import { WebhookUrlError } from './url-query'

const FIRST_RETRY_MS = 10_000
const MAX_RETRY_MS = 60 * 60_000
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000
/** Delivered rows are kept this long (Settings shows the last delivery), then pruned. */
const KEEP_DELIVERED_MS = 7 * 24 * 60 * 60_000
/** Webhooks delivering at once: enough that a few hanging receivers leave room for the rest. */
export const DEFAULT_PARALLEL = 8
/**
 * How long a claim on a delivery lasts: twice the POST's timeout, room for the keychain and the
 * outcome's unit. A deliverer that dies holding one (a crash, a power cut) leaves it; another
 * (or the same after a restart) sends the delivery again once it has run out.
 */
export const CLAIM_MS = 2 * DELIVERY_TIMEOUT_MS

export interface DelivererOptions {
  clock: () => number
  timers: Timers
  /** The webhook's signing secret (from the keychain), or null. */
  secretOf(webhookId: string): Promise<string | null>
  /** The whole URL to send to (its query from the keychain); throws WebhookUrlError when it cannot be made now. */
  urlOf(hook: WebhookRecord): Promise<string>
  /** How often to look at the outbox when nothing is known to be due (ms). */
  idleCheckMs?: number
  /** At most this many webhooks have a delivery in flight at once (each at most one). */
  parallel?: number
  /** How long a claim lasts (ms); CLAIM_MS unless a test says. */
  claimMs?: number
  /** Names this deliverer in its claims; unique per deliverer (host:pid:random unless a test says). */
  claimer?: string
}

export class WebhookDeliverer {
  private timer: unknown
  /** The running lane of each webhook that has one. */
  private readonly lanes = new Map<string, Promise<void>>()
  private readonly quitting = new AbortController()
  private stopped = false
  /** After the outbox failed: no lane starts before this. */
  private restUntil = 0
  /** The look at the outbox under way, if any (it may start lanes): runOnce() and stop() wait for it. */
  private looking: Promise<void> | null = null
  /** A look asked for while one was under way: that one looks once more, rather than a second beside it. */
  private lookAgain = false
  private readonly claimer: string

  constructor(
    private readonly store: Store,
    private readonly options: DelivererOptions
  ) {
    this.claimer = options.claimer ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  }

  start(): void {
    this.schedule(0)
  }

  /** Something was queued: send it now rather than at the next look. */
  kick(): void {
    if (!this.stopped) this.schedule(0)
  }

  /** Starts a lane for each webhook with a delivery due; resolves when every lane has ended. */
  async runOnce(): Promise<void> {
    await this.pump()
    await this.idle()
  }

  /**
   * What is due now, sent before a headless run ends (`eventwatch sync --once`): resolves when
   * every lane has ended (a failure waits for its retry, in the next run), or at `signal`, which
   * stops the deliverer. Says how many webhooks still have a delivery waiting.
   */
  async deliverDue(signal: AbortSignal): Promise<{ waiting: number }> {
    const stop = (): void => void this.stop()
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
    try {
      await this.runOnce()
    } finally {
      signal.removeEventListener('abort', stop)
    }
    return { waiting: (await this.store.read.webhooks.outboxHeads()).length }
  }

  /**
   * Ends the lanes: a request in flight is abandoned, not counted, and its claim released, so it
   * is sent again at once by another deliverer, or after a restart.
   */
  async stop(): Promise<void> {
    this.stopped = true
    this.options.timers.clearTimeout(this.timer)
    this.quitting.abort()
    await this.idle()
    try {
      await this.store.withTransaction((tx) => tx.webhooks.release(this.claimer))
    } catch {
      // The store is closing or failing: the claims run out by themselves.
    }
  }

  private async idle(): Promise<void> {
    while (this.lanes.size > 0 || this.looking) await Promise.all([...this.lanes.values(), this.looking])
  }

  private schedule(ms: number): void {
    if (this.stopped) return
    this.options.timers.clearTimeout(this.timer)
    this.timer = this.options.timers.setTimeout(() => void this.pump(), ms)
  }

  /** Looks at the outbox now, or once more after the look under way; resolves when that look has ended. */
  private pump(): Promise<void> {
    if (this.looking) {
      this.lookAgain = true
      return this.looking
    }
    this.looking = (async () => {
      try {
        do {
          this.lookAgain = false
          await this.look()
        } while (this.lookAgain && !this.stopped)
      } finally {
        this.looking = null
      }
    })()
    return this.looking
  }

  /** Starts the lanes that are due and have room, then sets the timer for the next head. */
  private async look(): Promise<void> {
    if (this.stopped) return
    const idle = this.options.idleCheckMs ?? 30_000
    const now = this.options.clock()
    if (now < this.restUntil) return this.schedule(this.restUntil - now)
    try {
      if (this.lanes.size === 0) await this.store.withTransaction((tx) => tx.webhooks.prune(now - KEEP_DELIVERED_MS))
      const heads = await this.store.read.webhooks.outboxHeads()
      if (this.stopped) return
      let next = now + idle
      for (const head of heads) {
        if (this.lanes.has(head.webhookId)) continue
        // Claimed (by another deliverer, whose lane goes on with the webhook's next): look again when the claim runs out.
        const takenAt = Math.max(head.dueAt, head.claimedUntil ?? 0)
        if (takenAt > now) next = Math.min(next, takenAt)
        else if (this.lanes.size < (this.options.parallel ?? DEFAULT_PARALLEL)) this.startLane(head.webhookId)
        // else due with no room: a lane that ends pumps again.
      }
      this.schedule(next - now)
    } catch (error) {
      await this.trouble(error)
    }
  }

  private startLane(webhookId: string): void {
    // Ends after the look it asks for, so that idle() sees the lanes that look starts.
    const lane = this.runLane(webhookId).finally(() => {
      this.lanes.delete(webhookId)
      return this.pump()
    })
    this.lanes.set(webhookId, lane)
  }

  /** This webhook's due deliveries, oldest first, each claimed before it is sent, until one must wait (a retry, another's claim). */
  private async runLane(webhookId: string): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return
        const now = this.options.clock()
        const claim = { by: this.claimer, until: now + (this.options.claimMs ?? CLAIM_MS) }
        const item = await this.store.withTransaction((tx) => tx.webhooks.claimHead(webhookId, now, claim))
        if (!item || !(await this.deliver(item))) return
      }
    } catch (error) {
      await this.trouble(error)
    }
  }

  /**
   * Sends one and records the outcome; false when the lane cannot go on (the webhook is gone, or
   * quitting). An outcome that comes after the claim ran out and another deliverer took the
   * delivery is not recorded: the one that took it sends it again and records its own.
   */
  private async deliver(item: ClaimedDelivery): Promise<boolean> {
    const hook = await this.store.read.webhooks.get(item.webhookId)
    if (!hook) return false // removed meanwhile: its rows went with it
    const outcome = await this.send(hook, item)
    if (this.stopped) return false
    const now = this.options.clock()
    await this.store.withTransaction(async (tx) => {
      if (outcome.ok) return void (await tx.webhooks.delivered(item, now))
      const retryAt = outcome.retry ? this.retryAt(item, now) : null
      if (await tx.webhooks.failed(item, outcome.error, now, retryAt)) await tx.runs.recordDiagnostic(this.failureOf(hook, item, outcome, retryAt))
    })
    return true
  }

  private async send(hook: WebhookRecord, item: OutboxItem): Promise<SendOutcome> {
    let url: string
    try {
      url = await this.options.urlOf(hook)
    } catch (error) {
      const retry = !(error instanceof WebhookUrlError) || error.retry
      return { ok: false, retry, kind: 'configuration', error: error instanceof Error ? error.message : String(error) }
    }
    let secret: string | null = null
    try {
      secret = hook.signed ? await this.options.secretOf(hook.id) : null
    } catch (error) {
      // Its secret is kept but cannot be decrypted here (docs/secrets.md): not sent unsigned (or without its key); tried again.
      if (error instanceof SecretUnreadableError) return { ok: false, retry: true, kind: 'configuration', error: `not signed, so not sent: ${error.message}` }
    }
    const { body, path, idempotencyKey, event } = item
    return sendWebhook({ format: hook.format, url, body, path, idempotencyKey, event, secret, now: this.options.clock(), signal: this.quitting.signal })
  }

  private retryAt(item: OutboxItem, now: number): number | null {
    if (now - item.createdAt >= GIVE_UP_AFTER_MS) return null
    return now + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** item.attempts)
  }

  /** What Diagnostics says of a failed delivery. */
  private failureOf(
    hook: WebhookRecord,
    item: OutboxItem,
    outcome: Extract<SendOutcome, { ok: false }>,
    retryAt: number | null
  ): Omit<DiagnosticEntry, 'id'> {
    const then = retryAt === null ? 'given up' : `trying again in ${Math.round((retryAt - this.options.clock()) / 1000)} s`
    return {
      connectionId: null,
      at: this.options.clock(),
      kind: outcome.kind,
      endpoint: `webhook ${hook.name}`,
      message: `delivery of ${item.event} (${item.idempotencyKey}) failed: ${outcome.error}; ${then}`
    }
  }

  /**
   * The outbox itself failed (a full disk): said in Diagnostics, and every lane rests until the
   * next look, so a delivery that was sent but could not be marked is not sent again at once.
   */
  private async trouble(error: unknown): Promise<void> {
    const now = this.options.clock()
    this.restUntil = now + (this.options.idleCheckMs ?? 30_000)
    this.schedule(this.restUntil - now)
    const message = `the outbox could not be read or updated: ${error instanceof Error ? error.message : String(error)}`
    try {
      await this.store.withTransaction((tx) => tx.runs.recordDiagnostic({ connectionId: null, at: now, kind: 'storage', endpoint: 'webhooks', message }))
    } catch {
      // The disk that refused the outbox refuses this too; deliveries wait for the next look.
    }
  }
}
