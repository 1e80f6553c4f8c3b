// One JSON request, made robust: a timeout on the whole exchange (headers and body), a size cap
// enforced while the body streams in, a content-type check, and every failure turned into an
// ApiError of the shared taxonomy with a short reason that never echoes a token or a secret.
import { cancellation, throwIfAborted } from '../net/abort'
import { defaultFetch, type FetchLike } from '../net/connection-fetch'
import { ApiError, kindOfStatus } from './errors'
import { classifyNetworkError } from './network-errors'
import { shortReason } from './reason'
import { parseRetryAfter } from './retry-after'

export interface JsonRequest {
  endpoint: string
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: unknown
  /** Covers connecting, the headers and the whole body. */
  timeoutMs?: number
  maxBodyBytes?: number
  /** "Now", for Retry-After given as an HTTP date. */
  clock?: () => number
  /** Stops the request at once (the signal's reason is thrown, not a network error). */
  signal?: AbortSignal
  /** The connection's own fetch (its proxy and CA); the process default otherwise. */
  fetch?: FetchLike
}

export interface JsonResponse {
  status: number
  body: unknown
}

export const DEFAULT_TIMEOUT_MS = 20_000
/** Far above any sane page (a page of 500 viewers is well under 1 MB), far below trouble. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024
/** An error body is read only for its first words. */
const ERROR_BODY_BYTES = 64 * 1024

export async function requestJson(req: JsonRequest): Promise<JsonResponse> {
  throwIfAborted(req.signal) // no request after a stop
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  req.signal?.addEventListener('abort', stop, { once: true })
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const secrets = secretsOf(req)
  const fail = (error: unknown): Error => {
    if (req.signal?.aborted) return cancellation(req.signal)
    if (error instanceof ApiError) return error
    if (timedOut) return new ApiError('network', req.endpoint, `timed out after ${timeoutMs} ms`, undefined, undefined, 'timeout')
    const problem = classifyNetworkError(error) ?? { cause: 'other' as const, message: 'network error' }
    return new ApiError('network', req.endpoint, problem.message, undefined, undefined, problem.cause)
  }
  try {
    const response = await (req.fetch ?? defaultFetch())(req.url, {
      method: req.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...req.headers
      },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: controller.signal,
      // A redirect would carry the bearer token somewhere nobody configured.
      redirect: 'manual'
    })
    if (response.status < 200 || response.status > 299) {
      const { text } = await readBody(response, ERROR_BODY_BYTES, controller).catch(() => ({ text: '' }))
      throw statusError(req, response, shortReason(text, secrets))
    }
    checkContentType(req.endpoint, response, controller)
    const { text, overflow } = await readBody(response, req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, controller)
    if (overflow) {
      throw new ApiError('response-format', req.endpoint, `response larger than ${req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes; stopped reading`, response.status)
    }
    if (text.trim() === '') throw new ApiError('response-format', req.endpoint, 'empty response', response.status)
    try {
      return { status: response.status, body: JSON.parse(text) }
    } catch {
      // Truncated bodies land here too: the connection ended cleanly, the JSON did not.
      throw new ApiError('response-format', req.endpoint, 'response is not valid JSON (truncated or not JSON)', response.status)
    }
  } catch (error) {
    throw fail(error)
  } finally {
    clearTimeout(timer)
    req.signal?.removeEventListener('abort', stop)
  }
}

function statusError(req: JsonRequest, response: Response, reason: string): ApiError {
  const status = response.status
  if (status >= 300 && status < 400) {
    return new ApiError('response-format', req.endpoint, `HTTP ${status}: redirects are not followed`, status)
  }
  const retryAfterMs =
    status === 429 || status === 503
      ? parseRetryAfter(response.headers.get('retry-after'), (req.clock ?? Date.now)())
      : undefined
  return new ApiError(kindOfStatus(status), req.endpoint, `HTTP ${status}${reason ? `: ${reason}` : ''}`, status, retryAfterMs)
}

/**
 * The spec promises application/json. Any +json type is accepted too. A missing Content-Type
 * is tolerated if the body parses as JSON (some gateways drop the header); any other type
 * (an HTML login or error page behind a 200, text/plain) is a response-format error.
 */
function checkContentType(endpoint: string, response: Response, controller: AbortController): void {
  const header = response.headers.get('content-type')
  if (header === null || header.trim() === '') return
  const type = (header.split(';')[0] ?? '').trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json')) return
  controller.abort()
  throw new ApiError('response-format', endpoint, `expected JSON but the content type is ${type.slice(0, 60)}`, response.status)
}

/** Reads the body up to `maxBytes`, counting as it streams; past the cap it aborts the request. */
async function readBody(
  response: Response,
  maxBytes: number,
  controller: AbortController
): Promise<{ text: string; overflow: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) {
    controller.abort()
    return { text: '', overflow: true }
  }
  if (!response.body) return { text: '', overflow: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      controller.abort()
      return { text: '', overflow: true }
    }
    chunks.push(value)
  }
  return { text: Buffer.concat(chunks).toString('utf8'), overflow: false }
}

/** Values that must never appear in a message: the bearer token and any secret we sent. */
function secretsOf(req: JsonRequest): string[] {
  const secrets: string[] = []
  const auth = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1]
  const bearer = auth ? /^\s*\S+\s+(\S+)/.exec(auth)?.[1] : undefined
  if (bearer) secrets.push(bearer)
  if (req.body && typeof req.body === 'object') {
    for (const [key, value] of Object.entries(req.body)) {
      if (/secret|token|password/i.test(key) && typeof value === 'string' && value.length > 0) secrets.push(value)
    }
  }
  return secrets
}
