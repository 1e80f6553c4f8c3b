import { describe, expect, it } from 'vitest'
import { formatAge, formatBytes, formatCount, formatReliability, isStale } from '../../src/shared/format'

describe('display formatting', () => {
  it('groups counts and rounds', () => {
    expect(formatCount(1234567.4)).toBe('1,234,567')
    expect(formatCount(0)).toBe('0')
  })

  it('shows traffic in decimal units with sensible precision', () => {
    expect(formatBytes(999)).toBe('999 B')
    expect(formatBytes(1500)).toBe('1.5 kB')
    expect(formatBytes(37_551_662_237)).toBe('37.6 GB')
    expect(formatBytes(296_000_000_000)).toBe('296 GB')
    expect(formatBytes(-1)).toBe('—')
    expect(formatBytes(Number.NaN)).toBe('—')
  })

  it('shows a reliability the core put on 0–100 with one decimal, as it is, and a dash when there is none', () => {
    expect(formatReliability(97.37)).toBe('97.4')
    expect(formatReliability(0.97)).toBe('1.0')
    expect(formatReliability(null)).toBe('—')
    expect(formatReliability(Number.POSITIVE_INFINITY)).toBe('—')
  })

  it('says how old data is and when it is stale', () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    expect(formatAge('2026-11-21T11:59:48Z', now)).toBe('12 s ago')
    expect(formatAge('2026-11-21T11:56:00Z', now)).toBe('4 min ago')
    expect(formatAge('2026-11-21T09:00:00Z', now)).toBe('3 h ago')
    expect(formatAge(null, now)).toBe('never')
    // Three intervals (at least 30 s) without an update is stale.
    expect(isStale('2026-11-21T11:59:40Z', now, 15)).toBe(false)
    expect(isStale('2026-11-21T11:59:10Z', now, 15)).toBe(true)
    expect(isStale('2026-11-21T11:59:35Z', now, 1)).toBe(false)
    expect(isStale(null, now, 15)).toBe(false)
  })
})
