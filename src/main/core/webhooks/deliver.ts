// One delivery: a POST with its idempotency key and, when the webhook has a signing secret, an
// HMAC-SHA256 signature of "<timestamp>.<body>". Its outcome says whether trying again can help:
// a network failure, a timeout, 408, 429 or a 5xx can; any other answer cannot (a wrong URL does
// not fix itself). The outbox's deliverer (deliverer.ts) decides when. An on-call tool's delivery
// carries its key instead of a signature (on-call-requests.ts), and its refusal is said in the
// tool's words.
import { createHmac } from 'node:crypto'
import type { ErrorKind } from '../../../shared/error-kinds'
import { hideUrlQueries, isOnCallFormat, type WebhookFormat } from '../../../shared/webhooks'
import { classifyNetworkError } from '../api/network-errors'
import { defaultFetch, type FetchLike } from '../net/connection-fetch'
import { onCallRequest, refusalWords } from './on-call-requests'

export const DELIVERY_TIMEOUT_MS = 10_000

export type SendOutcome =
  | { ok: true; status: number; ms: number }
  | { ok: false; retry: boolean; kind: ErrorKind; error: string }

export interface SendRequest {
  /** json when absent. */
  format?: WebhookFormat
  url: string
  body: string
  /** Where under `url` it goes (Opsgenie's acknowledge and close); null or absent: `url` itself. */
  path?: string | null
  idempotencyKey: string
  event: string
  /** The signing secret, or an on-call tool's key (required for those). */
  secret: string | null
  now: number
  fetch?: FetchLike
  /** Aborts the request (the app is quitting); the timeout applies either way. */
  signal?: AbortSignal
}

/** An on-call tool's refusal is read up to this much (its error is a line of JSON). */
const MAX_REFUSAL_BYTES = 8192

/** One POST; never throws. */
export async function sendWebhook(req: SendRequest): Promise<SendOutcome> {
  const started = Date.now()
  const format = req.format ?? 'json'
  const onCall = isOnCallFormat(format) ? format : null
  if (onCall && !req.secret) {
    // The key is kept but could not be read (a locked keychain): not sent without it; tried again.
    return { ok: false, retry: true, kind: 'configuration', error: `not sent: the ${onCall} key could not be read from where the secrets are kept` }
  }
  const request =
    onCall && req.secret ? onCallRequest(onCall, { url: req.url, path: req.path ?? null, body: req.body, secret: req.secret }) : { url: req.url, headers: {}, body: req.body }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Eventwatch',
    'Idempotency-Key': req.idempotencyKey,
    'X-Eventwatch-Event': req.event,
    ...request.headers
  }
  if (req.secret && !onCall) {
    const timestamp = String(Math.floor(req.now / 1000))
    headers['X-Eventwatch-Timestamp'] = timestamp
    headers['X-Eventwatch-Signature'] = `sha256=${signature(req.secret, timestamp, req.body)}`
  }
  try {
    const response = await (req.fetch ?? defaultFetch())(request.url, {
      method: 'POST',
      headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(DELIVERY_TIMEOUT_MS), ...(req.signal ? [req.signal] : [])])
    })
    const status = response.status
    const refused = onCall !== null && status >= 400 && status < 500
    const answer = refused ? await readSome(response, MAX_REFUSAL_BYTES) : ''
    await response.body?.cancel().catch(() => undefined)
    if (status >= 200 && status < 300) return { ok: true, status, ms: Date.now() - started }
    const retry = status === 408 || status === 429 || status >= 500
    const error = onCall && refused ? refusalWords(onCall, status, answer, req.secret ?? '') : `HTTP ${status} from the receiver`
    return { ok: false, retry, kind: status >= 500 ? 'server' : 'configuration', error }
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

/** At most `max` bytes of a response's body, as text; '' when it cannot be read. */
async function readSome(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < max) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch {
    // Cut off mid-answer: what came is enough to say.
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8')
}
