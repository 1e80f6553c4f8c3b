// poll-state.ts: the header's words for the connection. Issue 14: offline before any update,
// it read "Offline since 18:45 · Waiting for the first update…", which contradicts itself.
import { describe, expect, it } from 'vitest'
import { noUpdateWords, pollState } from '../../../src/renderer/src/lib/poll-state'
import type { Status } from '../../../src/shared/domain'

const status = (o: Partial<Status>): Status =>
  ({ mode: 'connected', connectionName: 'Tenant', pollState: 'polling', lastUpdateAt: null, lastError: null, offlineSince: null, paused: false, pollIntervalSeconds: 15, ...o }) as Status

describe('the header before any update', () => {
  it('waits only while a first poll may still come', () => {
    expect(noUpdateWords(null)).toBe('Waiting for the first update…')
    expect(noUpdateWords(status({ pollState: 'starting' }))).toBe('Waiting for the first update…')
  })

  it('says the cache is shown when offline, failing or paused, never "waiting"', () => {
    const now = Date.parse('2026-11-24T18:50:00Z')
    const offline = status({ pollState: 'offline', offlineSince: '2026-11-24T18:45:00Z' })
    expect(pollState(offline, now).label).toMatch(/^Offline since/)
    expect(noUpdateWords(offline)).toBe('No update since Eventwatch started: showing cached data')
    expect(noUpdateWords(status({ pollState: 'error' }))).toBe('No update since Eventwatch started: showing cached data')
    expect(noUpdateWords(status({ paused: true }))).toBe('No update yet: polling is paused; showing cached data')
  })
})
