// poll-state.ts: the header's and the wall's words for the core's polling verdicts. Issue 14:
// offline before any update, it read "Offline since 18:45 · Waiting for the first update…", which
// contradicts itself. Issue 24: one connection offline of three made the whole header "Offline".
import { describe, expect, it } from 'vitest'
import { connectionLines, noUpdateWords, shownError, statusPhrases } from '../../../src/renderer/src/lib/poll-state'
import type { Status } from '../../../src/shared/domain'
import type { ConnectionPollStatus, PollSummary } from '../../../src/shared/poll-status'
import { isolatedName } from '../../../src/shared/plain-text'
import { display } from '../../../src/renderer/src/lib/stores/display.svelte'
import { DEFAULT_DISPLAY } from '../../../src/shared/settings'

const connection = (o: Partial<ConnectionPollStatus> = {}): ConnectionPollStatus => ({
  connectionId: 'c1',
  connectionName: 'Tenant',
  state: 'connected',
  tone: 'ok',
  demo: false,
  since: null,
  reason: null,
  lastError: null,
  lastUpdateAt: null,
  current: true,
  ...o
})

const status = (summary: Partial<PollSummary>, o: Partial<Status> = {}): Status => ({
  mode: 'connected',
  connectionName: 'Tenant',
  connections: [connection({ state: 'waiting', tone: 'muted', current: false })],
  summary: { state: 'waiting', tone: 'muted', lastUpdateAt: null, outdated: true, ...summary },
  problem: null,
  pollState: 'polling',
  lastUpdateAt: null,
  lastGoodAt: null,
  lastError: null,
  offlineSince: null,
  paused: false,
  pollIntervalSeconds: 15,
  ...o
})

describe('the header before any update', () => {
  it('waits only while a first poll may still come', () => {
    expect(noUpdateWords(null)).toBe('Waiting for the first update…')
    expect(noUpdateWords(status({ state: 'waiting' }))).toBe('Waiting for the first update…')
  })

  it('says the cache is shown when offline or paused, never "waiting"', () => {
    display.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
    const since = '2026-11-24T18:45:00Z'
    const offline = status({ state: 'offline', tone: 'bad' }, { connections: [connection({ state: 'offline', tone: 'bad', since, current: false })] })
    expect(statusPhrases(offline)).toEqual([{ tone: 'bad', line: 'Offline since 18:45' }])
    expect(noUpdateWords(offline)).toBe('No successful poll yet: showing cached data')
    expect(noUpdateWords(status({ state: 'paused' }))).toBe('Polling is paused; showing cached data')
  })

  it('keeps the last good time across a break: the newest data in the cache, never dropped', () => {
    display.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
    const lastGoodAt = new Date(Date.now() - 60_000).toISOString()
    const words = noUpdateWords(status({ state: 'offline' }, { lastGoodAt }))
    expect(words).toBe(`No successful poll yet: showing cached data of ${display.formatMoment(lastGoodAt)}`)
    expect(words).toMatch(/\d\d:\d\d:\d\d$/)
    expect(noUpdateWords(status({ state: 'waiting' }, { lastGoodAt }))).toMatch(/^Waiting for the first update… \(showing cached data of /)
  })
})

describe('the words per connection', () => {
  const now = Date.parse('2026-11-24T06:13:04Z')
  const contoso = connection({
    connectionId: 'c',
    connectionName: 'Contoso',
    state: 'offline',
    tone: 'bad',
    since: '2026-11-24T06:10:09Z',
    reason: 'connection refused',
    lastError: 'GET /v1/events/sessions: connection refused',
    lastUpdateAt: '2026-11-24T06:10:08Z',
    current: false
  })
  const fabrikam = connection({ connectionId: 'f', connectionName: 'Fabrikam', lastUpdateAt: '2026-11-24T06:13:02Z' })
  const northwind = connection({ connectionId: 'n', connectionName: 'Northwind', lastUpdateAt: '2026-11-24T06:13:01Z' })
  const desk = status({ state: 'partial', tone: 'bad', lastUpdateAt: fabrikam.lastUpdateAt, outdated: false }, { connections: [contoso, fabrikam, northwind] })

  it('name the offline one with since when and why, and group those that poll', () => {
    display.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
    expect(statusPhrases(desk)).toEqual([
      { tone: 'bad', line: `${isolatedName('Contoso')} offline since 06:10 (connection refused)` },
      { tone: 'ok', line: `${isolatedName('Fabrikam')}, ${isolatedName('Northwind')} connected` }
    ])
  })

  it('say "Paused" once when the operator paused them all (a pause is the app\'s, not a tenant\'s)', () => {
    const paused = (c: ConnectionPollStatus): ConnectionPollStatus => ({ ...c, state: 'paused', tone: 'muted' })
    const all = status({ state: 'paused', tone: 'muted' }, { connections: [paused(fabrikam), paused(northwind)] })
    expect(statusPhrases(all)).toEqual([{ tone: 'muted', line: 'Paused' }])
    // One still offline while the others are paused: each said as it is.
    const mixed = status({ state: 'paused', tone: 'muted' }, { connections: [contoso, paused(fabrikam), paused(northwind)] })
    expect(statusPhrases(mixed).map((p) => p.line)).toEqual([
      `${isolatedName('Contoso')} offline since 06:10 (connection refused)`,
      `${isolatedName('Fabrikam')}, ${isolatedName('Northwind')} paused`
    ])
  })

  it('say what a connection no server holds waits for, apart from one waiting for its first poll', () => {
    const waitingFor = (c: ConnectionPollStatus, reason: string | null): ConnectionPollStatus => ({ ...c, state: 'waiting', tone: 'muted', current: false, reason })
    const unheld = waitingFor(northwind, 'waiting for a server to take it over')
    const team = status({ state: 'connected' }, { connections: [fabrikam, unheld, waitingFor(contoso, null)] })
    expect(statusPhrases(team).map((p) => p.line)).toEqual([
      `${isolatedName('Northwind')} waiting for a server to take it over`,
      `${isolatedName('Contoso')} connecting…`,
      `${isolatedName('Fabrikam')} connected`
    ])
    expect(statusPhrases(status({ state: 'waiting' }, { connections: [unheld] }))).toEqual([{ tone: 'muted', line: 'Waiting for a server to take it over' }])
  })

  it("give each connection's own freshness and failure in full", () => {
    display.display = { ...DEFAULT_DISPLAY, timeZone: 'utc' }
    expect(connectionLines(desk, now).split('\n')).toEqual([
      'Contoso: offline since 06:10 (connection refused); last update 06:10:08 (2 min ago) — GET /v1/events/sessions: connection refused',
      'Fabrikam: connected; last update 06:13:02 (2 s ago)',
      'Northwind: connected; last update 06:13:01 (3 s ago)'
    ])
  })

  it("show one connection's failure in full beside the words, several connections' in their own words", () => {
    const alone = status({ state: 'offline' }, { connections: [contoso] })
    expect(shownError(alone)).toBe('GET /v1/events/sessions: connection refused')
    expect(shownError(desk)).toBeNull()
    expect(shownError({ ...desk, problem: 'alerts: disk full' })).toBe('alerts: disk full')
  })
})
