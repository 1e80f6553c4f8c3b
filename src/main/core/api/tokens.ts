// Client-credentials tokens: fetched on demand, renewed ahead of expiry, one renewal shared
// by every concurrent caller.
import { abortable, throwIfAborted } from '../net/abort'
import { rememberSecret } from '../net/redact'
import type { Credentials } from './connection'
import { ApiError } from './errors'
import { requestJson, type JsonRequest } from './http'
import { TokenResponseSchema } from './schemas'

/** The spec's token life, assumed when expires_in is missing or unusable (0, negative, not a number). */
export const ASSUMED_LIFETIME_SECONDS = 10_800

/** Renew this long before the service would reject the token (less for short-lived tokens). */
const RENEWAL_MARGIN_MS = 5 * 60_000

export class TokenManager {
  private token: { value: string; renewAt: number } | null = null
  private renewal: { promise: Promise<string>; controller: AbortController; waiters: number } | null = null

  constructor(
    private readonly authUrl: string,
    private readonly credentials: () => Promise<Credentials>,
    private readonly clock: () => number = Date.now,
    /** Timeout, size cap and the connection's fetch for the token request, as for data requests. */
    private readonly requestOptions: Pick<JsonRequest, 'timeoutMs' | 'maxBodyBytes' | 'fetch'> = {}
  ) {}

  /**
   * A valid token. A caller whose signal aborts stops waiting at once; the shared renewal goes
   * on while anyone still waits for it, and is aborted when nobody does.
   */
  async get(signal?: AbortSignal): Promise<string> {
    throwIfAborted(signal)
    if (this.token && this.token.renewAt > this.clock()) return this.token.value
    const renewal = this.renew()
    renewal.waiters++
    try {
      return await abortable(renewal.promise, signal)
    } finally {
      if (--renewal.waiters === 0) {
        // Nobody waits any more (done, or all stopped): a later caller starts afresh.
        if (this.renewal === renewal) this.renewal = null
        renewal.controller.abort()
      }
    }
  }

  /** Forget `rejected` (a data request got 401 with it) and get a fresh one. */
  async renewAfterRejection(rejected: string, signal?: AbortSignal): Promise<string> {
    if (this.token?.value === rejected) this.token = null
    return this.get(signal)
  }

  private renew(): { promise: Promise<string>; controller: AbortController; waiters: number } {
    if (this.renewal) return this.renewal
    const controller = new AbortController()
    const renewal = {
      controller,
      waiters: 0,
      promise: this.fetchToken(controller.signal).finally(() => {
        if (this.renewal === renewal) this.renewal = null
      })
    }
    renewal.promise.catch(() => undefined) // its waiters see the failure; nobody else must
    this.renewal = renewal
    return renewal
  }

  private async fetchToken(signal: AbortSignal): Promise<string> {
    const endpoint = 'POST /v2/auth/token'
    const { clientId, clientSecret } = await this.credentials()
    rememberSecret(clientSecret) // wherever it came from (keychain, environment, file)
    const response = await requestJson({
      endpoint,
      url: `${this.authUrl.replace(/\/+$/, '')}/v2/auth/token`,
      method: 'POST',
      ...this.requestOptions,
      clock: this.clock,
      signal,
      body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }
    }).catch((error: unknown) => {
      if (error instanceof ApiError && (error.status === 400 || error.status === 401 || error.status === 403)) {
        throw new ApiError('authentication', endpoint, 'the credentials were refused (check client ID and secret)', error.status)
      }
      throw error
    })
    const parsed = TokenResponseSchema.safeParse(response.body)
    if (!parsed.success) throw new ApiError('response-format', endpoint, 'token response has no usable access_token')
    const lifetimeMs = (parsed.data.expires_in ?? ASSUMED_LIFETIME_SECONDS) * 1000
    const margin = Math.min(RENEWAL_MARGIN_MS, lifetimeMs / 2)
    rememberSecret(parsed.data.access_token)
    this.token = { value: parsed.data.access_token, renewAt: this.clock() + lifetimeMs - margin }
    return this.token.value
  }
}
