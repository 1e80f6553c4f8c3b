// Retries for failures that may pass: 429 and 503 wait as long as the service asked
// (Retry-After), other 5xx, 408 and passing network trouble back off exponentially with full
// jitter, up to a bound. Everything else is final at once: retrying a 403 only hides it.
import { sleep as abortableSleep, throwIfAborted } from '../net/abort'
import { ApiError } from './errors'

export interface RetryInfo {
  /** The attempt that just failed (1-based). */
  attempt: number
  maxAttempts: number
  /** How long we wait before the next attempt. */
  delayMs: number
  /** Whether the delay is the service's Retry-After rather than our backoff. */
  fromRetryAfter: boolean
  error: ApiError
}

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number
  baseDelayMs: number
  maxDelayMs: number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** Ends every wait and attempt at once: the signal's reason is thrown. */
  signal?: AbortSignal
  /** In [0, 1); injectable so tests are deterministic. */
  random?: () => number
  onRetry?: (info: RetryInfo) => void
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000
}

/** Whether `error` may pass if we ask again. Authentication (401) is the token layer's. */
export function isRetryable(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false
  if (error.kind === 'rate-limited') return true
  if (error.kind === 'server') return error.status === undefined || error.status === 408 || error.status >= 500
  if (error.kind === 'network') {
    // A wrong host name or a bad certificate does not fix itself in seconds.
    return !['unknown-host', 'tls', 'proxy-auth'].includes(error.networkCause ?? '')
  }
  return false
}

/** The wait before attempt `attempt + 1`, after `error` failed attempt `attempt`. */
export function retryDelay(
  error: ApiError,
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>
): { delayMs: number; fromRetryAfter: boolean } {
  if ((error.status === 429 || error.status === 503) && error.retryAfterMs !== undefined) {
    // Already capped when parsed; the service's word beats our backoff ceiling.
    return { delayMs: error.retryAfterMs, fromRetryAfter: true }
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  const random = policy.random ?? Math.random
  return { delayMs: Math.floor(random() * ceiling), fromRetryAfter: false }
}

/**
 * Runs `operation` until it succeeds, fails for good, or has had `maxAttempts` tries. The last
 * error is thrown unchanged, so its kind and status reach the caller as they were.
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  policy: Partial<RetryPolicy> = {}
): Promise<T> {
  const p = { ...DEFAULT_RETRY_POLICY, ...definedOnly(policy) }
  const maxAttempts = Math.max(1, Math.floor(p.maxAttempts))
  const sleep = p.sleep ?? abortableSleep
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(p.signal)
    try {
      return await operation(attempt)
    } catch (error) {
      throwIfAborted(p.signal) // a stop, not a failure to retry
      if (attempt >= maxAttempts || !isRetryable(error)) throw error
      const { delayMs, fromRetryAfter } = retryDelay(error, attempt, p)
      p.onRetry?.({ attempt, maxAttempts, delayMs, fromRetryAfter, error })
      await sleep(delayMs, p.signal)
    }
  }
}

/** `{ maxAttempts: undefined }` must not wipe out the default. */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
