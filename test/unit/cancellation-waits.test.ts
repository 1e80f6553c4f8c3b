// Every wait of the request path ends at once when its signal aborts (issue 13): the shared
// gate's back-off, its queue for a slot and its rate window, and withRetry's Retry-After sleep.
// Real timers: a 300 s wait that is still waiting after a second has not been cancelled.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/main/core/api/errors'
import { RequestLimiter } from '../../src/main/core/api/limiter'
import { withRetry } from '../../src/main/core/api/retry'
import { CancelledError } from '../../src/main/core/net/abort'

/** Far longer than any test: ending before it means the wait was cancelled, not sat out. */
const LONG_MS = 300_000
const PROMPTLY_MS = 1000

/** Aborts `controller` shortly (once the wait has begun) and measures how long `wait` took to end. */
async function abortDuring(wait: (signal: AbortSignal) => Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const controller = new AbortController()
  const started = performance.now()
  const ended = wait(controller.signal).then(
    () => ({ error: undefined }),
    (error: unknown) => ({ error })
  )
  setTimeout(() => controller.abort(), 50)
  const { error } = await ended
  return { error, elapsedMs: performance.now() - started }
}

describe('RequestLimiter on abort', () => {
  it('ends a 300 s back-off at once and never runs the request', async () => {
    const limiter = new RequestLimiter()
    limiter.backOff('a', LONG_MS)
    let ran = false
    const { error, elapsedMs } = await abortDuring((signal) => limiter.run('a', async () => void (ran = true), signal))
    expect(error).toBeInstanceOf(CancelledError)
    expect(elapsedMs).toBeLessThan(PROMPTLY_MS)
    expect(ran).toBe(false)
  })

  it('takes a caller out of the queue for a slot, and the slot goes to the next one', async () => {
    const limiter = new RequestLimiter({ maxInFlight: 1, perSecond: 1000 })
    let release!: () => void
    const first = limiter.run('a', () => new Promise<void>((resolve) => (release = resolve)))
    let ran = false
    const { error, elapsedMs } = await abortDuring((signal) => limiter.run('a', async () => void (ran = true), signal))
    expect(error).toBeInstanceOf(CancelledError)
    expect(elapsedMs).toBeLessThan(PROMPTLY_MS)
    // The one that left took no slot: when the first ends, a newcomer runs and the gate is free.
    const third = limiter.run('a', async () => 'third')
    release()
    await first
    expect(await third).toBe('third')
    expect(await limiter.run('a', async () => 'fourth')).toBe('fourth')
    expect(ran).toBe(false)
  })

  it('ends a wait for the rate window at once, and gives its slot back', async () => {
    const limiter = new RequestLimiter({ maxInFlight: 1, perSecond: 1 })
    await limiter.run('a', async () => undefined) // the window is full for a second
    let ran = false
    const { error, elapsedMs } = await abortDuring((signal) => limiter.run('a', async () => void (ran = true), signal))
    expect(error).toBeInstanceOf(CancelledError)
    expect(elapsedMs).toBeLessThan(PROMPTLY_MS)
    expect(ran).toBe(false)
    // Its slot was released: the next request goes once the window allows.
    expect(await limiter.run('a', async () => 'next')).toBe('next')
  })

  it('refuses at once when the signal has already aborted', async () => {
    const limiter = new RequestLimiter()
    let ran = false
    await expect(limiter.run('a', async () => void (ran = true), AbortSignal.abort())).rejects.toBeInstanceOf(CancelledError)
    expect(ran).toBe(false)
  })
})

describe('withRetry on abort', () => {
  it('ends a 300 s Retry-After sleep at once, with no further attempt', async () => {
    let attempts = 0
    const { error, elapsedMs } = await abortDuring((signal) =>
      withRetry(
        async () => {
          attempts++
          throw new ApiError('rate-limited', 'GET /v1/events/sessions', 'HTTP 429', 429, LONG_MS)
        },
        { signal }
      )
    )
    expect(error).toBeInstanceOf(CancelledError)
    expect(elapsedMs).toBeLessThan(PROMPTLY_MS)
    expect(attempts).toBe(1)
  })

  it('throws the signal\'s own reason (a deadline\'s error), not a retryable failure', async () => {
    const deadline = new ApiError('network', 'sync', 'the pass did not finish within 1 s (its deadline)')
    const controller = new AbortController()
    let attempts = 0
    const retried = withRetry(
      async () => {
        attempts++
        if (attempts === 1) setTimeout(() => controller.abort(deadline), 20)
        throw new ApiError('server', 'GET /v1/events/sessions', 'HTTP 503', 503, LONG_MS)
      },
      { signal: controller.signal }
    )
    await expect(retried).rejects.toBe(deadline)
    expect(attempts).toBe(1)
  })
})
