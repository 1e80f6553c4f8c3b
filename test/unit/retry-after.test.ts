// parseRetryAfter (src/main/core/api/retry-after.ts): delta-seconds or an HTTP date, capped.
import { describe, expect, it } from 'vitest'
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/main/core/api/retry-after'

const NOW = Date.parse('2025-03-10T09:00:00.000Z')

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0)
    expect(parseRetryAfter('3', NOW)).toBe(3000)
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000)
  })

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Mon, 10 Mar 2025 09:00:05 GMT', NOW)).toBe(5000)
    expect(parseRetryAfter(new Date(NOW + 42_000).toUTCString(), NOW)).toBe(42_000)
    expect(parseRetryAfter('Mon, 10 Mar 2025 08:59:00 GMT', NOW)).toBe(0)
  })

  it('caps long waits at five minutes', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(300_000)
    expect(parseRetryAfter('86400', NOW)).toBe(MAX_RETRY_AFTER_MS)
    expect(parseRetryAfter('Tue, 11 Mar 2025 09:00:00 GMT', NOW)).toBe(MAX_RETRY_AFTER_MS)
  })

  it('ignores what it cannot read', () => {
    for (const value of [null, undefined, '', '  ', '-5', '1.5', 'soon', 'Someday, 99 Foo 2025']) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined()
    }
  })
})
