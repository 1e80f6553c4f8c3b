// The team server's count of wrong guesses, on a clock that moves only when the test says: per
// client network and overall, with a bounded memory of networks.
import { describe, expect, it } from 'vitest'
import { clientNetwork } from '../../src/main/web/client-network'
import { GuessLimiter, OVERALL, PER_ADDRESS } from '../../src/main/web/guess-limiter'
import { fakeClock } from '../support/fake-clock'

const guesses = (limiter: GuessLimiter, address: string, count: number): (number | null)[] =>
  Array.from({ length: count }, () => limiter.wrongGuess(address)?.waitSeconds ?? null)

describe('guess limiter', () => {
  it("answers an address's first wrong guesses, then makes it wait for one more per interval, other addresses untouched", () => {
    const clock = fakeClock()
    const limiter = new GuessLimiter(clock.now)
    expect(guesses(limiter, '10.0.0.1', PER_ADDRESS.burst)).toEqual(Array(PER_ADDRESS.burst).fill(null))
    expect(limiter.wrongGuess('10.0.0.1')).toEqual({ waitSeconds: PER_ADDRESS.refillMs / 1000, scope: 'address' })
    expect(limiter.wrongGuess('10.0.0.2')).toBeNull()

    clock.advance(PER_ADDRESS.refillMs - 30_000)
    expect(limiter.wrongGuess('10.0.0.1')).toEqual({ waitSeconds: 30, scope: 'address' }) // refused guesses cost nothing
    clock.advance(30_000)
    expect(limiter.wrongGuess('10.0.0.1')).toBeNull()
    expect(limiter.wrongGuess('10.0.0.1')?.scope).toBe('address')

    // A quiet spell gives the whole budget back, never more.
    clock.advance(100 * PER_ADDRESS.refillMs)
    expect(guesses(limiter, '10.0.0.1', PER_ADDRESS.burst + 1).filter((wait) => wait === null)).toHaveLength(PER_ADDRESS.burst)
  })

  it('bounds the wrong guesses of the whole server, spread over many addresses', () => {
    const clock = fakeClock()
    const limiter = new GuessLimiter(clock.now)
    for (let i = 0; i < OVERALL.burst; i++) expect(limiter.wrongGuess(`10.1.${i >> 8}.${i & 255}`)).toBeNull()
    expect(limiter.wrongGuess('192.0.2.1')).toEqual({ waitSeconds: OVERALL.refillMs / 1000, scope: 'server' })
    clock.advance(OVERALL.refillMs)
    expect(limiter.wrongGuess('192.0.2.1')).toBeNull()
    expect(limiter.wrongGuess('192.0.2.2')?.scope).toBe('server')
  })

  it('remembers a bounded number of networks, forgetting the one that guessed least recently', () => {
    const clock = fakeClock()
    const limiter = new GuessLimiter(clock.now, { maxNetworks: 100, overall: { burst: 1_000_000, refillMs: 1 } })
    guesses(limiter, '10.0.0.1', PER_ADDRESS.burst)
    for (let i = 0; i < 50_000; i++) {
      limiter.wrongGuess(`10.2.${i >> 8}.${i & 255}`)
      if (i % 20 === 0) limiter.wrongGuess('10.0.0.1') // keeps guessing: stays remembered, and waiting
      expect(limiter.size).toBeLessThanOrEqual(100)
    }
    expect(limiter.wrongGuess('10.0.0.1')?.scope).toBe('address')
    expect(limiter.wrongGuess('10.2.0.0')).toBeNull() // long forgotten: a fresh budget
  })

  it('counts an IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 address', () => {
    const limiter = new GuessLimiter(fakeClock().now)
    const hosts = Array.from({ length: PER_ADDRESS.burst }, (_, i) => `2001:db8:1:2:${i.toString(16)}::1`)
    for (const host of hosts) expect(limiter.wrongGuess(host)).toBeNull()
    expect(limiter.wrongGuess('2001:db8:1:2:ffff:ffff:ffff:ffff')?.scope).toBe('address')
    expect(limiter.wrongGuess('2001:db8:1:3::1')).toBeNull()
  })
})

describe('client network', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    [undefined, 'unknown']
  ])('%s is %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network)
  })
})
