// The reporting API's endpoints for one connection: the headers of the spec on every request,
// retries for trouble that passes, one token renewal on 401, tolerant parsing that skips and
// reports bad records, pagination that cannot loop, and viewers handed over a page at a time
// (a list of millions never sits in memory). Every call takes a signal that stops it at once.
import type { ErrorKind } from '../../../shared/error-kinds'
import type { ConnectionTarget, Credentials } from './connection'
import { ApiError } from './errors'
import { requestJson } from './http'
import { fetchFor, type FetchLike } from '../net/connection-fetch'
import { followCursor, type CursorWalkResult } from './pagination'
import { sessionFilters, withQuery, type GetSessionParams, type ListSessionsParams } from './query'
import { withRetry, type RetryInfo, type RetryPolicy } from './retry'
import {
  EventSessionSchema,
  SessionListPageSchema,
  ViewerListPageSchema,
  ViewerSchema,
  type EventSessionRecord,
  type ViewerRecord
} from './schemas'
import { TokenManager } from './tokens'
import { viewerAsIs } from './viewer-fast-path'
import type { RequestLimiter } from './limiter'

export { describeApiError, type ErrorDescription } from './describe-error'
export type { GetSessionParams, ListSessionsParams } from './query'

/** A record the client could not use, reported rather than fatal. */
export interface SkippedRecord {
  endpoint: string
  reason: string
}

export interface SessionList {
  sessions: EventSessionRecord[]
  skipped: SkippedRecord[]
  pages: number
  ended: CursorWalkResult['ended']
}

export interface ViewerList {
  viewers: ViewerRecord[]
  skipped: SkippedRecord[]
  pages: number
}

/** What a streamed viewer listing handed over. */
export interface ViewerStream {
  viewers: number
  skipped: number
  pages: number
  ended: CursorWalkResult['ended']
}

export interface CallOptions {
  /** Stops the call at once: no request after it, the wait or request in hand ends. */
  signal?: AbortSignal
}

export interface ListSessionsOptions extends CallOptions {
  /** Each page's sessions as it arrives (kept, they are stored once the listing is over: sync-pass.ts). */
  onPage?: (sessions: EventSessionRecord[]) => void
}

/** A page of viewers; the next page is asked for once the returned promise resolves. */
export type ViewerPageHandler = (viewers: ViewerRecord[]) => Promise<void> | void

/** Something that went wrong but did not (yet) fail the call: a skipped record, a retry. */
export interface ClientDiagnostic {
  kind: ErrorKind
  endpoint: string
  message: string
}

export interface ReportingClientOptions {
  /** For token expiry and Retry-After dates; tests inject a fake one. */
  clock?: () => number
  /** Per request (token and data), covering the whole body. Default 20 s. */
  timeoutMs?: number
  maxBodyBytes?: number
  retry?: Partial<RetryPolicy>
  /** Bound on pages per listing. Default none: a listing is bounded by its caller's deadline. */
  maxPages?: number
  onDiagnostic?: (diagnostic: ClientDiagnostic) => void
  /** Shared with every other connection's client: in-flight and per-second bounds. */
  limiter?: RequestLimiter
}

const SESSIONS = 'GET /v1/events/sessions'
const SESSION = 'GET /v1/events/sessions/{id}'
const VIEWERS = 'GET /v1/events/sessions/{id}/viewers'
/** Skips reported one by one per listing; the rest are summed up in one line (all are counted). */
const SKIPS_REPORTED_EACH = 20

export class ReportingClient {
  private readonly tokens: TokenManager
  private readonly options: ReportingClientOptions
  /** Through the connection's own proxy and CA, if it has them. */
  private readonly fetch: FetchLike

  constructor(
    private readonly target: ConnectionTarget,
    credentials: () => Promise<Credentials>,
    options: ReportingClientOptions = {}
  ) {
    this.options = options
    this.fetch = fetchFor(target.network)
    this.tokens = new TokenManager(target.authUrl, credentials, options.clock ?? Date.now, {
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      fetch: this.fetch
    })
  }

  async listSessions(params: ListSessionsParams = {}, options: ListSessionsOptions = {}): Promise<SessionList> {
    const filters = sessionFilters(SESSIONS, params) // a bad date fails here, before any request
    const result: SessionList = { sessions: [], skipped: [], pages: 0, ended: 'last-page' }
    const skips = this.skipReporter(SESSIONS, result.skipped)
    const walked = await followCursor({
      endpoint: SESSIONS,
      maxPages: this.options.maxPages,
      firstCursor: params.cursor,
      signal: options.signal,
      fetchPage: async (cursor) => {
        const body = await this.get(SESSIONS, withQuery('/v1/events/sessions', withCursor(filters, cursor)), options.signal)
        const page = SessionListPageSchema.safeParse(body)
        if (!page.success) throw new ApiError('response-format', SESSIONS, 'response is not a session list')
        const sessions: EventSessionRecord[] = []
        for (const item of page.data.data ?? []) {
          const parsed = EventSessionSchema.safeParse(item)
          if (!parsed.success) skips.skip(recordLabel('session', item, 'eventSessionId'), parsed.error.issues[0], item)
          else if (!isWellFormed(parsed.data.eventSessionId)) skips.skip('a session record', ILL_FORMED_ID, item)
          else sessions.push(parsed.data)
        }
        result.sessions.push(...sessions)
        options.onPage?.(sessions)
        return { next: page.data.pagination?.nextCursor, records: page.data.data?.length ?? 0 }
      }
    })
    result.pages = walked.pages
    result.ended = walked.ended
    this.reportRepeatedCursor(SESSIONS, walked, 'the session list')
    skips.finish()
    return result
  }

  async getSession(eventSessionId: string, params: GetSessionParams = {}, options: CallOptions = {}): Promise<EventSessionRecord> {
    const query: [string, string][] = params.aggr ? [['aggr', params.aggr]] : []
    const body = await this.get(SESSION, withQuery(`/v1/events/sessions/${pathSegment(SESSION, eventSessionId)}`, query), options.signal)
    const parsed = EventSessionSchema.safeParse(body)
    if (!parsed.success) throw new ApiError('response-format', SESSION, describeIssue(parsed.error.issues[0]))
    return parsed.data
  }

  /** Every viewer of one session, in memory: for small lists and tests (syncing streams them). */
  async listViewers(eventSessionId: string, options: CallOptions = {}): Promise<ViewerList> {
    const viewers: ViewerRecord[] = []
    const skipped: SkippedRecord[] = []
    const stream = await this.streamViewers(eventSessionId, (page) => void viewers.push(...page), { ...options, skipped })
    return { viewers, skipped, pages: stream.pages }
  }

  /**
   * Every viewer of one session, handed to `onPage` a page at a time; the next page is asked for
   * once `onPage` has resolved, so memory holds a page or two, never the list.
   */
  async streamViewers(
    eventSessionId: string,
    onPage: ViewerPageHandler,
    options: CallOptions & { skipped?: SkippedRecord[] } = {}
  ): Promise<ViewerStream> {
    const path = `/v1/events/sessions/${pathSegment(VIEWERS, eventSessionId)}/viewers`
    const skipped = options.skipped ?? []
    const skips = this.skipReporter(VIEWERS, skipped)
    let count = 0
    let reportedMismatch = false
    const walked = await followCursor({
      endpoint: VIEWERS,
      maxPages: this.options.maxPages,
      signal: options.signal,
      fetchPage: async (cursor) => {
        const body = await this.get(VIEWERS, withQuery(path, withCursor([], cursor)), options.signal)
        const page = ViewerListPageSchema.safeParse(body)
        if (!page.success) throw new ApiError('response-format', VIEWERS, 'response is not a viewer list')
        const echoed = page.data.eventSessionId
        if (echoed !== undefined && echoed !== eventSessionId && !reportedMismatch) {
          reportedMismatch = true // odd but not fatal: the path said which session we asked for
          this.diagnose('response-format', VIEWERS, 'the viewer list names another eventSessionId than requested')
        }
        const viewers: ViewerRecord[] = []
        const items = page.data.data ?? []
        for (const item of items) {
          const asIs = viewerAsIs(item)
          if (asIs) {
            viewers.push(asIs)
            continue
          }
          const parsed = ViewerSchema.safeParse(item)
          if (parsed.success) viewers.push(parsed.data)
          else skips.skip(`${recordLabel('viewer', item, 'viewerId')} of session ${eventSessionId.slice(0, 64)}`, parsed.error.issues[0], item)
        }
        count += viewers.length
        if (viewers.length > 0) await onPage(viewers)
        return { next: page.data.pagination?.nextCursor, records: items.length }
      }
    })
    this.reportRepeatedCursor(VIEWERS, walked, `the viewer list of session ${JSON.stringify(eventSessionId.slice(0, 64))}`)
    skips.finish()
    return { viewers: count, skipped: skipped.length, pages: walked.pages, ended: walked.ended }
  }

  /** A listing cut short, said with whose it was: Diagnostics lists every connection's. */
  private reportRepeatedCursor(endpoint: string, walked: CursorWalkResult, listing: string): void {
    if (walked.ended !== 'repeated-cursor') return
    const where = `connection ${JSON.stringify(this.target.name)}, ${listing}`
    this.diagnose('response-format', endpoint, `${where}: the service repeated a page cursor after ${walked.pages} pages; the listing ends there, with every page read kept`)
  }

  /** One data request: retried when the trouble may pass; a 401 renews the token once. */
  private async get(endpoint: string, path: string, signal: AbortSignal | undefined): Promise<unknown> {
    let renewed = false
    const policy = this.options.retry ?? {}
    return withRetry(
      async () => {
        const token = await this.tokens.get(signal)
        try {
          return await this.limited(() => this.send(endpoint, path, token, signal), signal)
        } catch (error) {
          // An expired or revoked token: renew once and retry once (per call, not per attempt).
          if (!renewed && error instanceof ApiError && error.status === 401) {
            renewed = true
            const renewedToken = await this.tokens.renewAfterRejection(token, signal)
            return this.limited(() => this.send(endpoint, path, renewedToken, signal), signal)
          }
          throw error
        }
      },
      {
        ...policy,
        signal,
        onRetry: (info) => {
          // Rate limited: the whole connection waits, not just this request.
          if (info.fromRetryAfter) this.options.limiter?.backOff(this.target.id, info.delayMs)
          this.diagnose(info.error.kind, endpoint, retryMessage(info))
          policy.onRetry?.(info)
        }
      }
    )
  }

  private limited<T>(request: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return this.options.limiter ? this.options.limiter.run(this.target.id, request, signal) : request()
  }

  private async send(endpoint: string, path: string, token: string, signal: AbortSignal | undefined): Promise<unknown> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      'platform-id': this.target.platformId,
      'tenant-id': this.target.tenantId
    }
    if (this.target.origin) headers.Origin = this.target.origin
    if (this.target.referer) headers.Referer = this.target.referer
    const response = await requestJson({
      endpoint,
      url: `${this.target.baseUrl.replace(/\/+$/, '')}${path}`,
      headers,
      timeoutMs: this.options.timeoutMs,
      maxBodyBytes: this.options.maxBodyBytes,
      clock: this.options.clock,
      signal,
      fetch: this.fetch
    })
    return response.body
  }

  private diagnose(kind: ErrorKind, endpoint: string, message: string): void {
    try {
      this.options.onDiagnostic?.({ kind, endpoint, message })
    } catch {
      // A failing listener must not fail the call it listens to.
    }
  }

  /** Collects skipped records; reports the first few one by one and the rest as a sum. */
  private skipReporter(endpoint: string, skipped: SkippedRecord[]) {
    return {
      skip: (label: string, issue: Issue | undefined, item: unknown): void => {
        const reason = describeIssue(issue, item)
        skipped.push({ endpoint, reason })
        if (skipped.length <= SKIPS_REPORTED_EACH) this.diagnose('response-format', endpoint, `skipped ${label}: ${reason}`)
      },
      finish: (): void => {
        const more = skipped.length - SKIPS_REPORTED_EACH
        if (more > 0) this.diagnose('response-format', endpoint, `skipped ${more} more records that do not match the schema`)
      }
    }
  }
}

type Issue = { path: PropertyKey[]; message: string }

/**
 * Whether an id can be one segment of a request path. Ids are opaque, but "." and ".." cannot
 * be: URL parsing resolves them (percent-encoded as %2E too), so the request would reach
 * another endpoint. Such a session is kept as listed; its details and viewers are not asked for.
 */
export function isAddressableId(id: string): boolean {
  return id !== '.' && id !== '..' && isWellFormed(id)
}

/**
 * Whether `id` is Unicode text. JSON can carry a lone surrogate ("\ud800"), which has no UTF-8
 * form: it cannot be percent-encoded into a path, nor stored as SQLite text and read back the same.
 */
function isWellFormed(id: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(id)
}

const ILL_FORMED_ID: Issue = {
  path: ['eventSessionId'],
  message: 'not valid Unicode text (a lone surrogate): it can be neither stored nor sent in a URL path'
}

/** An id as one path segment: percent-encoded, never one that URL parsing would resolve. */
function pathSegment(endpoint: string, id: string): string {
  if (!isAddressableId(id)) {
    const why = isWellFormed(id) ? 'it would address another endpoint' : 'it is not valid Unicode text'
    // JSON's quoting: a lone surrogate shows as \ud800, not as a character no one can read.
    throw new ApiError('response-format', endpoint, `the id ${JSON.stringify(id.slice(0, 64))} cannot be sent in a URL path (${why}); not requested`)
  }
  return encodeURIComponent(id)
}

function withCursor(filters: readonly [string, string][], cursor: string | undefined): [string, string][] {
  return cursor ? [...filters, ['cursor', cursor]] : [...filters]
}

/** "viewerId is missing", "startedAt: not a date-time": the field and what is wrong with it. */
function describeIssue(issue: Issue | undefined, item?: unknown): string {
  if (!issue) return 'record does not match the schema'
  const field = issue.path.map(String).join('.') || 'record'
  if (item !== undefined && issue.path.length > 0 && valueAt(item, issue.path) === undefined) return `${field} is missing`
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`
}

function valueAt(item: unknown, path: PropertyKey[]): unknown {
  let value = item
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** "session 5e55…" when the record has a usable id, else just "a session record". */
function recordLabel(what: string, item: unknown, idField: string): string {
  const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[idField] : undefined
  return typeof id === 'string' && id.length > 0 ? `${what} ${id.slice(0, 64)}` : `a ${what} record`
}

function retryMessage(info: RetryInfo): string {
  const wait = info.fromRetryAfter ? `${info.delayMs} ms as Retry-After asked` : `${info.delayMs} ms`
  return `attempt ${info.attempt} of ${info.maxAttempts} failed (${info.error.reason}); retrying in ${wait}`
}
