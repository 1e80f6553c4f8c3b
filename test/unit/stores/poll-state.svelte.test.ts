// poll-state.ts: the header's words for the connection. Issue 14: offline before any update,
// it read "Offline since 18:45 · Waiting for the first update…", which contradicts itself.
import { describe, expect, it } from 'vitest'
import { noUpdateWords, pollState } from '../../../src/renderer/src/lib/poll-state'
import type { Status } from '../../../src/shared/domain'
import { display } from '../../../src/renderer/src/lib/stores/display.svelte'
import { DEFAULT_DISPLAY } from '../../../src/shared/settings'

const status = (o: Partial<Status>): Status =>
  ({ mode: 'connected', connectionName: 'Tenant', pollState: 'polling', lastUpdateAt: null, lastGoodAt: null, lastError: null, offlineSince: null, paused: false, pollIntervalSeconds: 15, ...o }) as Status

describe('the header before any update', () => {
  it('waits only while a first poll may still come', () => {
    expect(noUpdateWords(null)).toBe('Waiting for the first update…')
    expect(noUpdateWords(status({ pollState: 'starting' }))).toBe('Waiting for the first update…')
  })

  it('says the cache is shown when offline, failing or paused, never "waiting"', () => {
    const now = Date.parse('2026-11-24T18:50:00Z')
    const offline = status({ pollState: 'offline', offlineSince: '2026-11-24T18:45:00Z' })
    expect(pollState(offline, now).label).toMatch(/^Offline since/)
    expect(noUpdateWords(offline)).toBe('No successful poll yet: showing cached data')
    expect(noUpdateWords(status({ pollState: 'error' }))).toBe('No successful poll yet: showing cached data')
    expect(noUpdateWords(status({ paused: true }))).toBe('No update yet: polling is paused; showing cached data')
  })

  it('keeps the last good time across a break: the newest data in the cache, never dropped', () => {
    display.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
    const lastGoodAt = new Date(Date.now() - 60_000).toISOString()
    const words = noUpdateWords(status({ pollState: 'error', lastGoodAt }))
    expect(words).toBe(`No successful poll yet: showing cached data of ${display.formatMoment(lastGoodAt)}`)
    expect(words).toMatch(/\d\d:\d\d:\d\d$/)
    expect(noUpdateWords(status({ pollState: 'starting', lastGoodAt }))).toMatch(/^Waiting for the first update… \(showing cached data of /)
  })
})
