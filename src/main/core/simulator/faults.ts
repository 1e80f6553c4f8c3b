// Switchable misbehaviour for the simulator, so the client's resilience is tested against real
// HTTP rather than mocks. Most modes affect the next `count` data requests (Infinity: until
// reset); cursor repetition, overlapping pages and schema drift are on/off. Token modes act on
// the token store.
// Incidents act on the simulated world: one session's reliability really falls.
import type { IncidentOptions } from './world'

export type FailureReply =
  | { type: 'rate-limit'; status: 429 | 503; retryAfterSeconds: number; asHttpDate: boolean }
  | { type: 'server-error'; status: number }
  | { type: 'html'; status: number }

export type Mangle = { type: 'truncate' } | { type: 'content-type'; contentType: string }

export interface RateLimitOptions {
  /** Default 1. */
  retryAfterSeconds?: number
  /** Send Retry-After as an HTTP date (on the simulator's clock) instead of seconds. */
  asHttpDate?: boolean
  /** 429 by default; 503 also carries Retry-After. */
  status?: 429 | 503
}

interface Armed<T> {
  remaining: number
  value: T
}

export interface FaultHooks {
  revokeTokens(): void
  incident(eventSessionId: string, options: IncidentOptions): void
  recover(eventSessionId: string): void
  siteIncident(eventSessionId: string, siteCode: number, options: { reliability: number; minutes: number }): void
}

export class SimulatorFaults {
  /** Lifetime of tokens issued from now on; undefined: the simulator's option. */
  tokenLifetimeSeconds: number | undefined
  /** What token answers say in expires_in, whatever the real lifetime (absent when `value` is undefined). */
  expiresInAnswer: { value: unknown } | null = null
  /** Session and viewer lists answer the same nextCursor forever. */
  repeatingCursors = false
  /** Viewer lists only answer the same nextCursor forever; the session list behaves. */
  repeatingViewerCursors = false
  /** Each later page of the session list starts with the last session of the page before. */
  overlappingSessionPages = false
  /** How many requests for the last page of one session's viewers are answered together (0: each at once). */
  lastViewerPagesTogether = 0
  /** Records drift from the spec: missing required fields, numeric strings, unknown fields. */
  schemaDrift = false
  /** Cursors handed out as JSON numbers (the spec says string). */
  numericCursors = false
  /** Every answer to a request with a cursor (a listing's later pages) is cut in half. */
  laterPagesTruncated = false

  private rateLimited: Armed<RateLimitOptions> | null = null
  private serverFailures: Armed<number[]> & { next: number } = { remaining: 0, value: [], next: 0 }
  private htmlPages: Armed<number> | null = null
  private truncated = 0
  private wrongType: Armed<string> | null = null
  private slow: Armed<number> | null = null
  private echoes = 0

  constructor(private readonly hooks: FaultHooks) {}

  /** Tokens issued from now on live `seconds`. */
  setTokenLifetime(seconds: number | undefined): this {
    this.tokenLifetimeSeconds = seconds
    return this
  }

  /** Token answers carry this `expires_in` (0, -5, null, "soon"; undefined leaves it out). */
  answerExpiresIn(value: unknown): this {
    this.expiresInAnswer = { value }
    return this
  }

  /** Every token issued so far is refused with 401 from now on; new ones work. */
  revokeTokens(): this {
    this.hooks.revokeTokens()
    return this
  }

  /**
   * From now (the simulator's clock), this live session's reliability is `drop` points lower
   * for `minutes`; the next record the service gives shows it. Throws for an unknown session.
   */
  incident(eventSessionId: string, options: IncidentOptions = { drop: 25, minutes: 10 }): this {
    this.hooks.incident(eventSessionId, options)
    return this
  }

  /** One office in trouble: the viewers of `siteCode` in that session watch at `reliability`
   *  (0–100) for `minutes`, while the session's own score carries on as it was. */
  siteIncident(eventSessionId: string, siteCode: number, options: { reliability: number; minutes: number }): this {
    this.hooks.siteIncident(eventSessionId, siteCode, options)
    return this
  }

  /** Ends that session's incident now: its reliability climbs back to its usual level. */
  recover(eventSessionId: string): this {
    this.hooks.recover(eventSessionId)
    return this
  }

  /** The next `count` data requests get 429 (or 503) with Retry-After. */
  rateLimit(count: number, options: RateLimitOptions = {}): this {
    this.rateLimited = { remaining: count, value: options }
    return this
  }

  /** The next `count` data requests fail with these statuses in turn (default 500, 502, 503). */
  serverErrors(count: number, statuses: readonly number[] = [500, 502, 503]): this {
    this.serverFailures = { remaining: count, value: [...statuses], next: 0 }
    return this
  }

  /** The next `count` data requests get an HTML error page with this status (default 502). */
  htmlErrors(count: number, status = 502): this {
    this.htmlPages = { remaining: count, value: status }
    return this
  }

  /** The next `count` successful answers are cut in half (200, JSON content type). */
  truncateBodies(count: number): this {
    this.truncated = count
    return this
  }

  /** The next `count` successful answers carry this content type (default text/html). */
  wrongContentType(count: number, contentType = 'text/html; charset=utf-8'): this {
    this.wrongType = { remaining: count, value: contentType }
    return this
  }

  /**
   * The next `count` data requests are refused (400) with a body that quotes the client secret
   * and the request's access token: what a careless service's error page does.
   */
  echoSecrets(count: number): this {
    this.echoes = count
    return this
  }

  /** The next `count` data requests are answered only after `delayMs`. */
  slowResponses(count: number, delayMs: number): this {
    this.slow = { remaining: count, value: delayMs }
    return this
  }

  repeatCursors(on = true): this {
    this.repeatingCursors = on
    return this
  }

  /** Viewer lists repeat their cursor from their second page on (so each is read up to there). */
  repeatViewerCursors(on = true): this {
    this.repeatingViewerCursors = on
    return this
  }

  /**
   * The session list pages by position, as a service does when a session starts while a client
   * pages through: each later page starts again with the last session of the page before, so
   * that session is listed twice.
   */
  overlapSessionPages(on = true): this {
    this.overlappingSessionPages = on
    return this
  }

  /**
   * The last page of a session's viewer list is held until `count` requests for it are waiting,
   * then all are answered: `count` pollers fetching the same list at the same time, for certain
   * (each has stored the pages before the last but one by the time it asks for the last).
   */
  answerLastViewerPagesTogether(count: number): this {
    this.lastViewerPagesTogether = count
    return this
  }

  driftSchema(on = true): this {
    this.schemaDrift = on
    return this
  }

  numberCursors(on = true): this {
    this.numericCursors = on
    return this
  }

  /** Listings break after their first page: the connection drops mid-list. */
  truncateLaterPages(on = true): this {
    this.laterPagesTruncated = on
    return this
  }

  /** Back to a well-behaved service (issued tokens stay valid). */
  reset(): this {
    this.tokenLifetimeSeconds = undefined
    this.expiresInAnswer = null
    this.repeatingCursors = false
    this.repeatingViewerCursors = false
    this.overlappingSessionPages = false
    this.lastViewerPagesTogether = 0
    this.schemaDrift = false
    this.numericCursors = false
    this.laterPagesTruncated = false
    this.rateLimited = null
    this.serverFailures = { remaining: 0, value: [], next: 0 }
    this.htmlPages = null
    this.truncated = 0
    this.wrongType = null
    this.slow = null
    this.echoes = 0
    return this
  }

  // --- used by the server, once per data request -----------------------------------------

  /** Whether to answer this request with the secrets it was given. */
  takeEcho(): boolean {
    if (this.echoes <= 0) return false
    this.echoes--
    return true
  }

  /** How long to stall this request (0: not at all). */
  takeDelay(): number {
    return take(this.slow) ?? 0
  }

  /** A failure to answer with instead of the real response, if one is armed. */
  takeFailure(): FailureReply | undefined {
    const limit = take(this.rateLimited)
    if (limit) {
      return {
        type: 'rate-limit',
        status: limit.status ?? 429,
        retryAfterSeconds: limit.retryAfterSeconds ?? 1,
        asHttpDate: limit.asHttpDate ?? false
      }
    }
    const f = this.serverFailures
    if (f.remaining > 0 && f.value.length > 0) {
      f.remaining--
      const status = f.value[f.next++ % f.value.length] ?? 500
      return { type: 'server-error', status }
    }
    const html = take(this.htmlPages)
    if (html !== undefined) return { type: 'html', status: html }
    return undefined
  }

  /** A way to spoil a successful answer, if one is armed (`laterPage`: it was asked with a cursor). */
  takeMangle(laterPage = false): Mangle | undefined {
    if (laterPage && this.laterPagesTruncated) return { type: 'truncate' }
    if (this.truncated > 0) {
      this.truncated--
      return { type: 'truncate' }
    }
    const contentType = take(this.wrongType)
    return contentType === undefined ? undefined : { type: 'content-type', contentType }
  }
}

function take<T>(armed: Armed<T> | null): T | undefined {
  if (!armed || armed.remaining <= 0) return undefined
  armed.remaining--
  return armed.value
}
