// One delivery: a POST with its idempotency key and, when the webhook has a signing secret, an
// HMAC-SHA256 signature of "<timestamp>.<body>". Its outcome says whether trying again can help:
// a network failure, a timeout, 408, 429 or a 5xx can; any other answer cannot (a wrong URL does
// not fix itself). The outbox's deliverer (deliverer.ts) decides when.
import { createHmac } from 'node:crypto'
import type { ErrorKind } from '../../../shared/error-kinds'
import { hideUrlQueries } from '../../../shared/webhooks'
import { classifyNetworkError } from '../api/network-errors'
import { defaultFetch, type FetchLike } from '../net/connection-fetch'

export const DELIVERY_TIMEOUT_MS = 10_000

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
  /** Aborts the request (the app is quitting); the timeout applies either way. */
  signal?: AbortSignal
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
      signal: AbortSignal.any([AbortSignal.timeout(DELIVERY_TIMEOUT_MS), ...(req.signal ? [req.signal] : [])])
    })
    await response.body?.cancel().catch(() => undefined)
    const status = response.status
    if (status >= 200 && status < 300) return { ok: true, status, ms: Date.now() - started }
    const retry = status === 408 || status === 429 || status >= 500
    return { ok: false, retry, kind: status >= 500 ? 'server' : 'configuration', error: `HTTP ${status} from the receiver` }
  } catch (error) {
    const problem = classifyNetworkError(error)
    const words = problem?.message ?? (error instanceof Error ? error.message : String(error))
    // Some stacks name the URL in their errors: its query (a Workflows sig) stays out.
    return { ok: false, retry: true, kind: 'network', error: hideUrlQueries(words) }
  }
}

/** The signature a receiver checks: HMAC-SHA256 over "<timestamp>.<body>", hex. */
export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}
