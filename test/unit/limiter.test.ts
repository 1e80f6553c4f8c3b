// The shared request gate, on a fake clock whose sleeps move time instead of waiting.
import { describe, expect, it } from 'vitest'
import { RequestLimiter } from '../../src/main/core/api/limiter'

function fakeTime() {
  let now = 0
  const sleeps: number[] = []
  return {
    clock: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      now += ms
    },
    sleeps
  }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('RequestLimiter', () => {
  it('keeps at most maxInFlight requests running, across connections', async () => {
    const limiter = new RequestLimiter({ maxInFlight: 4, perSecond: 1000 })
    let running = 0
    let peak = 0
    const gates = Array.from({ length: 10 }, deferred)
    const all = gates.map((gate, i) =>
      limiter.run(i % 2 ? 'a' : 'b', async () => {
        running++
        peak = Math.max(peak, running)
        await gate.promise
        running--
        return i
      })
    )
    await new Promise((r) => setImmediate(r))
    expect(running).toBe(4)
    gates.forEach((g) => g.resolve())
    expect(await Promise.all(all)).toEqual([...Array(10).keys()])
    expect(peak).toBe(4)
  })

  it('starts at most perSecond requests in any second', async () => {
    const time = fakeTime()
    const limiter = new RequestLimiter({ maxInFlight: 100, perSecond: 3, ...time })
    const starts: number[] = []
    for (let i = 0; i < 7; i++) await limiter.run('a', async () => void starts.push(time.clock()))
    expect(starts).toEqual([0, 0, 0, 1000, 1000, 1000, 2000])
  })

  it('holds every request of a rate-limited connection, and only that one', async () => {
    const time = fakeTime()
    const limiter = new RequestLimiter({ maxInFlight: 4, perSecond: 100, ...time })
    limiter.backOff('a', 5000)
    limiter.backOff('a', 1000) // a shorter ask does not cut the longer wait
    expect(limiter.backOffRemaining('a')).toBe(5000)
    expect(limiter.backOffRemaining('b')).toBe(0)
    await limiter.run('b', async () => undefined)
    expect(time.clock()).toBe(0) // b went at once
    await limiter.run('a', async () => undefined)
    expect(time.clock()).toBe(5000)
    expect(limiter.backOffRemaining('a')).toBe(0)
  })

  it('frees the slot when a request fails', async () => {
    const limiter = new RequestLimiter({ maxInFlight: 1, perSecond: 100 })
    await expect(limiter.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await limiter.run('a', async () => 'next')).toBe('next')
  })
})
