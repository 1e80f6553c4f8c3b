// withRetry (src/main/core/api/retry.ts): which failures are retried, how long it waits, and
// that the last error comes out unchanged. Sleep and randomness are injected.
import { describe, expect, it } from 'vitest'
import { ApiError, type NetworkCause } from '../../src/main/core/api/errors'
import { isRetryable, withRetry, type RetryInfo, type RetryPolicy } from '../../src/main/core/api/retry'

function recorder(random = 0.5) {
  const delays: number[] = []
  const retries: RetryInfo[] = []
  const policy: Partial<RetryPolicy> = {
    sleep: async (ms) => {
      delays.push(ms)
    },
    random: () => random,
    onRetry: (info) => retries.push(info)
  }
  return { delays, retries, policy }
}

const http = (status: number, retryAfterMs?: number): ApiError =>
  new ApiError(status === 429 ? 'rate-limited' : status >= 500 || status === 408 ? 'server' : status === 403 ? 'permission' : status === 404 ? 'not-found' : status === 401 ? 'authentication' : 'response-format', 'GET /x', `HTTP ${status}`, status, retryAfterMs)
const net = (cause: NetworkCause): ApiError => new ApiError('network', 'GET /x', cause, undefined, undefined, cause)

/** An operation that throws the given errors in turn, then answers 'ok'. */
function failing(...errors: unknown[]) {
  const op = { calls: 0, run: async (): Promise<string> => {
    const error = errors[op.calls++]
    if (error !== undefined) throw error
    return 'ok'
  } }
  return op
}

describe('withRetry', () => {
  it('returns at once when the first attempt works, without sleeping', async () => {
    const r = recorder()
    const op = failing()
    await expect(withRetry(op.run, r.policy)).resolves.toBe('ok')
    expect(op.calls).toBe(1)
    expect(r.delays).toEqual([])
  })

  it('backs off exponentially with full jitter on 5xx, then succeeds', async () => {
    const r = recorder(0.5)
    const op = failing(http(500), http(502), http(504))
    await expect(withRetry(op.run, { ...r.policy, baseDelayMs: 100 })).resolves.toBe('ok')
    expect(op.calls).toBe(4)
    // random 0.5 × min(max, 100 × 2^(n-1))
    expect(r.delays).toEqual([50, 100, 200])
    expect(r.retries.map((i) => i.attempt)).toEqual([1, 2, 3])
    expect(r.retries.every((i) => !i.fromRetryAfter)).toBe(true)
  })

  it('caps the backoff at maxDelayMs; jitter spans [0, ceiling)', async () => {
    const high = recorder(0.999)
    await withRetry(failing(http(500), http(500), http(500), http(500), http(500)).run, {
      ...high.policy,
      maxAttempts: 6,
      baseDelayMs: 1000,
      maxDelayMs: 3000
    })
    expect(high.delays).toEqual([999, 1998, 2997, 2997, 2997])
    const low = recorder(0)
    await withRetry(failing(http(503)).run, low.policy)
    expect(low.delays).toEqual([0])
  })

  it('uses the defaults: 4 attempts, 500 ms base', async () => {
    const r = recorder(0.5)
    const last = http(500)
    const op = failing(http(500), http(500), http(500), last, http(500))
    const error = await withRetry(op.run, r.policy).catch((e: unknown) => e)
    expect(error).toBe(last) // the last error, unchanged
    expect(op.calls).toBe(4)
    expect(r.delays).toEqual([250, 500, 1000]) // 0.5 × 500 × 2^(n-1)
  })

  it('waits exactly Retry-After on 429 and 503, whatever the backoff would say', async () => {
    const r = recorder(0.5)
    const op = failing(http(429, 2000), http(503, 7000), http(503))
    await expect(withRetry(op.run, { ...r.policy, maxDelayMs: 1000 })).resolves.toBe('ok')
    expect(r.delays).toEqual([2000, 7000, 500]) // the third has no Retry-After: backoff (0.5 × 1000)
    expect(r.retries.map((i) => i.fromRetryAfter)).toEqual([true, true, false])
  })

  it('retries 408, resets, refusals, timeouts and unknown network trouble', async () => {
    for (const error of [http(408), net('reset'), net('refused'), net('timeout'), net('dns-temporary'), net('other')]) {
      const op = failing(error)
      await expect(withRetry(op.run, recorder().policy)).resolves.toBe('ok')
      expect(op.calls, error.message).toBe(2)
    }
  })

  it.each([
    ['401', http(401)],
    ['403', http(403)],
    ['404', http(404)],
    ['400', http(400)],
    ['422', http(422)],
    ['unknown host', net('unknown-host')],
    ['TLS', net('tls')],
    ['response-format', new ApiError('response-format', 'GET /x', 'not JSON', 200)],
    ['configuration', new ApiError('configuration', 'GET /x', 'bad date')],
    ['a plain Error', new Error('bug')]
  ])('does not retry %s', async (_label, error) => {
    const r = recorder()
    const op = failing(error)
    await expect(withRetry(op.run, r.policy)).rejects.toBe(error)
    expect(op.calls).toBe(1)
    expect(r.delays).toEqual([])
  })

  it('gives up after maxAttempts and throws the last error unchanged', async () => {
    const r = recorder()
    const errors = [http(500), http(502), http(503, 10)]
    const op = failing(...errors, ...errors)
    const error = await withRetry(op.run, { ...r.policy, maxAttempts: 3 }).catch((e: unknown) => e)
    expect(error).toBe(errors[2])
    expect(op.calls).toBe(3)
    expect(r.delays.length).toBe(2)
  })

  it('treats maxAttempts 1 (or less) as "no retries"', async () => {
    for (const maxAttempts of [1, 0, -3]) {
      const op = failing(http(500))
      await expect(withRetry(op.run, { ...recorder().policy, maxAttempts })).rejects.toBeInstanceOf(ApiError)
      expect(op.calls).toBe(1)
    }
  })

  it('keeps defaults for options given as undefined', async () => {
    const r = recorder(0.5)
    const op = failing(http(500), http(500), http(500), http(500))
    await withRetry(op.run, { ...r.policy, maxAttempts: undefined, baseDelayMs: undefined }).catch(() => undefined)
    expect(op.calls).toBe(4)
    expect(r.delays).toEqual([250, 500, 1000])
  })

  it('passes the attempt number to the operation', async () => {
    const seen: number[] = []
    await withRetry(
      async (attempt) => {
        seen.push(attempt)
        if (attempt < 3) throw http(500)
      },
      recorder().policy
    )
    expect(seen).toEqual([1, 2, 3])
  })
})

describe('isRetryable', () => {
  it('follows the kind, the status and the network cause', () => {
    expect(isRetryable(http(429))).toBe(true)
    expect(isRetryable(http(500))).toBe(true)
    expect(isRetryable(http(501))).toBe(true)
    expect(isRetryable(http(408))).toBe(true)
    expect(isRetryable(http(401))).toBe(false)
    expect(isRetryable(net('tls'))).toBe(false)
    expect(isRetryable('HTTP 500')).toBe(false)
  })
})
