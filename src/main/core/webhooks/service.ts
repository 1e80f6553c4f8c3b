// Webhooks as the app and the CLI manage them: settings in the Store; a secret (account
// webhook:<id>: a signing secret, or an on-call tool's routing or API key, which those formats
// require) and a URL's query (account webhook-url:<id>, see url-query.ts) only in the keychain (or
// sealed on a shared database), written before the row's unit of work (never inside it) so a
// missing keychain stores nothing.
import { randomUUID } from 'node:crypto'
import { sessionLink, type LinkBase } from '../../../shared/session-link'
import {
  isOnCallFormat,
  secretWords,
  shownWebhookUrl,
  splitWebhookUrl,
  WebhookInputSchema,
  type WebhookSettings,
  type WebhookTestResult,
  type WebhookView
} from '../../../shared/webhooks'
import { ConnectionError, parseSettings } from '../connections/errors'
import { rememberSecret } from '../net/redact'
import { KeychainUnavailableError, type SecretStore } from '../secrets/keychain'
import { SecretUnreadableError } from '../secrets/sealing'
import type { Store } from '../store/interface/store'
import type { WebhookRecord } from '../store/interface/webhooks'
import { isUniqueViolation } from '../store/unique-violation'
import { deliveryFor, type AlertEvent } from './bodies'
import { sendWebhook } from './deliver'
import { deliveryUrlOf, webhookUrlAccount, WebhookUrlError } from './url-query'
import { webhookSecretAccount } from '../secrets/accounts'

export { webhookSecretAccount }
const MAX_SECRET_LENGTH = 4096

export class WebhookService {
  constructor(
    private readonly store: Store,
    private readonly secrets: SecretStore,
    private readonly clock: () => number = Date.now,
    /** Where a test message's link leads: the core's LinkBase, as the alerts' own. */
    private readonly linkBase: () => LinkBase = () => ({ kind: 'desk' })
  ) {}

  async list(): Promise<WebhookView[]> {
    const hooks = await this.store.read.webhooks.list()
    return Promise.all(hooks.map((hook) => this.view(hook)))
  }

  async findByName(name: string): Promise<WebhookView | null> {
    const hook = await this.store.read.webhooks.findByName(name)
    return hook ? this.view(hook) : null
  }

  /** Adds one; `secret` signs its deliveries (optional), or is an on-call tool's key (required). Throws ConnectionError('configuration') with the field. */
  async add(input: unknown, secret?: string): Promise<WebhookView> {
    const settings = validate(input)
    if (secret !== undefined && (typeof secret !== 'string' || secret.length > MAX_SECRET_LENGTH)) {
      throw new ConnectionError('configuration', `${secretWords(settings.format)} must be text of at most 4096 characters`, 'secret')
    }
    if (isOnCallFormat(settings.format) && !secret?.trim()) {
      throw new ConnectionError('configuration', `a ${settings.format} webhook needs ${secretWords(settings.format)}: it is how the tool knows the sender`, 'secret')
    }
    // Asked before the keychain is, and again in the unit that adds it (one added meanwhile).
    if (await this.store.read.webhooks.findByName(settings.name)) throw nameTaken(settings.name)
    const id = randomUUID()
    const { address, query } = splitWebhookUrl(settings.url)
    const kept: string[] = []
    let hook: WebhookRecord
    try {
      if (secret) {
        rememberSecret(secret) // whatever text it might turn up in, it goes out redacted
        await this.keep(webhookSecretAccount(id), secret, 'secret', kept)
      }
      if (query) {
        rememberSecret(query)
        await this.keep(webhookUrlAccount(id), query, 'url', kept)
      }
      hook = await this.store.withTransaction(async (tx) => {
        if (await tx.webhooks.findByName(settings.name)) throw nameTaken(settings.name)
        return tx.webhooks.add({ ...settings, url: address }, { signed: Boolean(secret), queryInKeychain: query !== null }, id, this.clock())
      })
    } catch (error) {
      // Nothing half kept: what reached the keychain goes when the rest cannot follow.
      for (const account of kept) await this.secrets.remove(account).catch(() => undefined)
      // Added meanwhile by another server of the team, which checked before this one wrote.
      if (isUniqueViolation(error)) throw nameTaken(settings.name)
      throw error
    }
    // Added: a failure to read it back must not take its secrets from the keychain.
    return this.view(hook)
  }

  /** Removes it, its queued deliveries and what the keychain keeps for it; false when there is no such webhook. */
  async remove(id: string): Promise<boolean> {
    const hook = await this.store.read.webhooks.get(id)
    if (!hook) return false
    const accounts = [...(hook.signed ? [webhookSecretAccount(id)] : []), ...(hook.queryInKeychain ? [webhookUrlAccount(id)] : [])]
    for (const account of accounts) {
      try {
        await this.secrets.remove(account)
      } catch (error) {
        throw error instanceof KeychainUnavailableError ? new ConnectionError('configuration', error.message) : error
      }
    }
    return this.store.withTransaction((tx) => tx.webhooks.remove(id))
  }

  /** Sends a test event now, outside the outbox, and says what the receiver answered. To an on-call
   *  tool, the test alert is created and then closed again, so that it leaves no open incident. */
  async test(id: string): Promise<WebhookTestResult> {
    const hook = await this.store.read.webhooks.get(id)
    if (!hook) throw new ConnectionError('not-found', `no webhook with id ${id}`)
    const now = this.clock()
    const event = testEvent(now, this.linkBase())
    let url: string
    try {
      url = await this.urlOf(hook)
    } catch (error) {
      if (error instanceof WebhookUrlError) return { ok: false, message: `not delivered: ${error.message}` }
      throw error
    }
    const secret = hook.signed ? await this.secretOf(id) : null
    const events = isOnCallFormat(hook.format) ? [event, resolvedTest(event)] : [event]
    let outcome: Awaited<ReturnType<typeof sendWebhook>> | undefined
    for (const e of events) {
      outcome = await sendWebhook({ format: hook.format, url, ...deliveryFor(hook.format, e), idempotencyKey: e.key, event: 'test', secret, now })
      if (!outcome.ok) break
    }
    if (!outcome?.ok) return { ok: false, message: `not delivered: ${outcome?.error ?? 'nothing sent'}` }
    return { ok: true, message: `delivered: HTTP ${outcome.status} in ${outcome.ms} ms${events.length > 1 ? ' (the test alert was opened and closed)' : ''}` }
  }

  /**
   * The signing secret, for the deliverer; null when it has none or the keychain cannot say. One
   * kept in the database that cannot be decrypted (another key, an altered row) throws
   * SecretUnreadableError: a signed webhook is not sent unsigned for it.
   */
  async secretOf(id: string): Promise<string | null> {
    try {
      return await this.secrets.read(webhookSecretAccount(id))
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw error
      return null
    }
  }

  /** The whole URL to send to, for the deliverer; throws WebhookUrlError when it cannot be made now. */
  urlOf(hook: WebhookRecord): Promise<string> {
    return deliveryUrlOf(this.secrets, hook)
  }

  /** Saves one secret of webhook `id`; an unavailable keychain refuses the field in its words. */
  private async keep(account: string, secret: string, field: 'secret' | 'url', kept: string[]): Promise<void> {
    try {
      await this.secrets.save(account, secret)
      kept.push(account)
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error
      const words = field === 'url' ? `a URL's query is a secret (as a Teams Workflows sig is), kept where the other secrets are: ${error.message}` : error.message
      throw new ConnectionError('configuration', words, field)
    }
  }

  private async view(hook: WebhookRecord): Promise<WebhookView> {
    const stats = await this.store.read.webhooks.stats(hook.id)
    return {
      id: hook.id,
      name: hook.name,
      url: shownWebhookUrl(hook.url, hook.queryInKeychain),
      format: hook.format,
      signed: hook.signed,
      pending: stats.pending,
      failed: stats.failed,
      lastDeliveredAt: stats.lastDeliveredAt === null ? null : new Date(stats.lastDeliveredAt).toISOString(),
      lastError: stats.lastError
    }
  }
}

const nameTaken = (name: string): ConnectionError =>
  new ConnectionError('configuration', `a webhook named "${name}" exists already: choose another name`, 'name')

function validate(input: unknown): WebhookSettings {
  return parseSettings(WebhookInputSchema, input)
}

/** What "test" sends: a made-up alert, said to be a test wherever it is shown, linking where alerts link. */
function testEvent(now: number, linkBase: LinkBase): AlertEvent {
  const at = new Date(now).toISOString()
  return {
    key: `test:${now}`,
    link: sessionLink(linkBase, { connectionId: 'test', eventSessionId: 'test-session' }),
    event: 'fired',
    at,
    value: 86.2,
    level: 90,
    note: null,
    by: null,
    site: null,
    alert: {
      id: 0,
      rule: 'reliability-below',
      connectionId: 'test',
      connectionName: 'Eventwatch test',
      eventSessionId: 'test-session',
      eventName: 'Test message from Eventwatch (no action needed)',
      site: null,
      siteName: null,
      state: 'firing',
      severity: 'critical',
      summary: 'Reliability 86.2, below the critical level 90 (a test)',
      firedAt: at,
      resolvedAt: null,
      snoozedUntil: null,
      endReason: null,
      endKind: null,
      transitions: []
    }
  }
}

/** The test alert ended again (an on-call tool's test closes what it opened). */
function resolvedTest(fired: AlertEvent): AlertEvent {
  const alert = { ...fired.alert, state: 'resolved' as const, resolvedAt: fired.at, endReason: 'the test is over', endKind: 'recovered' as const }
  return { ...fired, key: `${fired.key}:resolved`, event: 'resolved', alert }
}
