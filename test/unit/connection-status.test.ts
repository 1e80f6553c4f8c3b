// Each connection's polling status and the app's summary (core/sync/connection-status.ts), as
// tables: one connection's trouble is named as its own, and the app is offline only when no
// connection polls (issue 24: one dead service of three made the whole header say "Offline").
import { describe, expect, it } from 'vitest'
import {
  decideConnectionStatus,
  decideConnectionStatuses,
  decidePollSummary,
  type ConnectionFacts
} from '../../src/main/core/sync/connection-status'
import type { ConnectionPollStatus, PollSummary } from '../../src/shared/poll-status'
import { T0 } from '../support/fake-clock'

const CLOCK = { now: T0, pollIntervalSeconds: 15 }
/** Stale after max(3 × 15 s, 30 s). */
const STALE_AFTER_MS = 45_000
const at = (ms: number): string => new Date(ms).toISOString()
const REFUSED = 'GET /v1/events/sessions: connection refused'

function facts(change: Partial<ConnectionFacts> = {}): ConnectionFacts {
  return {
    connectionId: 'c1',
    connectionName: 'Contoso',
    demo: false,
    disabled: false,
    paused: false,
    state: 'ok',
    lastUpdateAt: T0 - 2_000,
    lastError: null,
    offlineSince: null,
    ...change
  }
}

describe('decideConnectionStatus', () => {
  const cases: [string, Partial<ConnectionFacts>, Partial<ConnectionPollStatus>][] = [
    ['polled 2 s ago: connected, current', {}, { state: 'connected', tone: 'ok', current: true, lastUpdateAt: at(T0 - 2_000), since: null, reason: null }],
    ['polled just inside the stale limit: still connected', { lastUpdateAt: T0 - STALE_AFTER_MS }, { state: 'connected', current: true }],
    ['no success for longer than three intervals, no failure said: stale', { lastUpdateAt: T0 - STALE_AFTER_MS - 1 }, { state: 'stale', tone: 'bad', current: false }],
    [
      'unreachable: offline since when, the cause without the request, the failure in full',
      { state: 'offline', offlineSince: T0 - 180_000, lastUpdateAt: T0 - 190_000, lastError: REFUSED },
      { state: 'offline', tone: 'bad', since: at(T0 - 180_000), reason: 'connection refused', lastError: REFUSED, lastUpdateAt: at(T0 - 190_000), current: false }
    ],
    [
      'offline before any success: offline, not waiting',
      { state: 'offline', offlineSince: T0 - 5_000, lastUpdateAt: null, lastError: 'GET /v1/events/sessions: HTTP 503: busy' },
      { state: 'offline', since: at(T0 - 5_000), reason: 'HTTP 503: busy', lastUpdateAt: null }
    ],
    [
      'credentials refused: failing, with the cause',
      { state: 'error', lastError: 'POST /v2/auth/token: the credentials were refused (check client ID and secret)' },
      { state: 'failing', tone: 'bad', since: null, reason: 'the credentials were refused (check client ID and secret)', current: false }
    ],
    ['a poller stopped: failing, and says so', { state: 'stopped' }, { state: 'failing', reason: 'polling stopped' }],
    ['a reason that is no request\'s message is kept whole', { state: 'error', lastError: 'alerts: disk full' }, { state: 'failing', reason: 'alerts: disk full' }],
    ['no success yet in this run: waiting', { state: 'starting', lastUpdateAt: null }, { state: 'waiting', tone: 'muted', current: false }],
    ['paused while fresh: paused, current', { paused: true, state: 'paused' }, { state: 'paused', tone: 'muted', current: true }],
    ['paused for long: paused, not current', { paused: true, state: 'paused', lastUpdateAt: T0 - 600_000 }, { state: 'paused', current: false }],
    [
      'paused while offline: paused (the operator asked), no failure said',
      { paused: true, state: 'paused', offlineSince: T0 - 60_000, lastError: REFUSED },
      { state: 'paused', since: null, reason: null }
    ],
    [
      'no server of the team holds it now (its holder died): waiting for one, not current, its last update kept',
      { unheld: true, state: 'starting', lastUpdateAt: T0 - 2_000 },
      { state: 'waiting', tone: 'muted', current: false, reason: 'waiting for a server to take it over', lastUpdateAt: at(T0 - 2_000) }
    ],
    ['held by nobody but paused by the operator: paused', { unheld: true, paused: true, state: 'starting' }, { state: 'paused', reason: null }],
    ['saved but switched off: disabled', { disabled: true, state: 'starting', lastUpdateAt: null }, { state: 'disabled', tone: 'muted', current: false, lastError: null }],
    ['the demo is marked as such', { demo: true, connectionName: 'Demo data' }, { state: 'connected', demo: true, connectionName: 'Demo data' }]
  ]
  it.each(cases)('%s', (_name, change, expected) => {
    expect(decideConnectionStatus(facts(change), CLOCK)).toMatchObject(expected)
  })

  it('lists the worst first, then by name', () => {
    const statuses = decideConnectionStatuses(
      [
        facts({ connectionId: 'n', connectionName: 'Northwind' }),
        facts({ connectionId: 'f', connectionName: 'Fabrikam' }),
        facts({ connectionId: 'x', connectionName: 'Adatum', disabled: true }),
        facts({ connectionId: 'c', connectionName: 'Contoso', state: 'offline', offlineSince: T0 - 1, lastError: REFUSED })
      ],
      CLOCK
    )
    expect(statuses.map((s) => [s.connectionName, s.state])).toEqual([
      ['Contoso', 'offline'],
      ['Fabrikam', 'connected'],
      ['Northwind', 'connected'],
      ['Adatum', 'disabled']
    ])
  })
})

describe('decidePollSummary', () => {
  const status = (change: Partial<ConnectionFacts>): ConnectionPollStatus => decideConnectionStatus(facts(change), CLOCK)
  const connected = (ago = 2_000) => status({ lastUpdateAt: T0 - ago })
  const offline = (lastUpdateAgo: number | null = 190_000) =>
    status({ state: 'offline', offlineSince: T0 - 180_000, lastUpdateAt: lastUpdateAgo === null ? null : T0 - lastUpdateAgo, lastError: REFUSED })
  const failing = () => status({ state: 'error', lastUpdateAt: T0 - 300_000, lastError: 'POST /v2/auth/token: HTTP 401' })
  const stale = () => status({ lastUpdateAt: T0 - 120_000 })
  const waiting = () => status({ state: 'starting', lastUpdateAt: null })
  const paused = (ago = 2_000) => status({ paused: true, state: 'paused', lastUpdateAt: T0 - ago })
  const disabled = () => status({ disabled: true, lastUpdateAt: null })

  const cases: [string, ConnectionPollStatus[], PollSummary][] = [
    ['no connection', [], { state: 'none', tone: 'muted', lastUpdateAt: null, outdated: false }],
    ['only a disabled one: none polled', [disabled()], { state: 'none', tone: 'muted', lastUpdateAt: null, outdated: false }],
    ['one connected', [connected()], { state: 'connected', tone: 'ok', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['one offline: the app is offline, its last update kept', [offline()], { state: 'offline', tone: 'bad', lastUpdateAt: at(T0 - 190_000), outdated: true }],
    [
      'one of three offline: partial, never offline, the freshest of those polling',
      [offline(), connected(6_000), connected(2_000)],
      { state: 'partial', tone: 'bad', lastUpdateAt: at(T0 - 2_000), outdated: false }
    ],
    [
      'an offline one polled last is not the freshness of the others',
      [offline(1_000), connected(6_000)],
      { state: 'partial', tone: 'bad', lastUpdateAt: at(T0 - 6_000), outdated: false }
    ],
    ['every one offline or failing: offline', [offline(), failing()], { state: 'offline', tone: 'bad', lastUpdateAt: at(T0 - 190_000), outdated: true }],
    ['one failing beside one connected: partial', [failing(), connected()], { state: 'partial', tone: 'bad', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['one stale beside one connected: partial', [stale(), connected()], { state: 'partial', tone: 'bad', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['only stale: stale, outdated', [stale()], { state: 'stale', tone: 'bad', lastUpdateAt: at(T0 - 120_000), outdated: true }],
    ['stale beside offline: the stale one may still poll, so partial', [stale(), offline()], { state: 'partial', tone: 'bad', lastUpdateAt: at(T0 - 120_000), outdated: true }],
    ['one waiting beside one connected: connected', [waiting(), connected()], { state: 'connected', tone: 'ok', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['every one waiting: waiting, outdated', [waiting(), waiting()], { state: 'waiting', tone: 'muted', lastUpdateAt: null, outdated: true }],
    ['one paused beside one connected: connected', [paused(), connected()], { state: 'connected', tone: 'ok', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['every one paused, fresh: paused, not outdated', [paused(), paused(3_000)], { state: 'paused', tone: 'muted', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['every one paused long ago: paused, outdated', [paused(600_000)], { state: 'paused', tone: 'muted', lastUpdateAt: at(T0 - 600_000), outdated: true }],
    ['one paused beside one offline: nothing polls, offline', [paused(), offline()], { state: 'offline', tone: 'bad', lastUpdateAt: at(T0 - 2_000), outdated: false }],
    ['a disabled one beside one connected is left out', [disabled(), connected()], { state: 'connected', tone: 'ok', lastUpdateAt: at(T0 - 2_000), outdated: false }]
  ]
  it.each(cases)('%s', (_name, connections, expected) => {
    expect(decidePollSummary(connections)).toEqual(expected)
  })
})
