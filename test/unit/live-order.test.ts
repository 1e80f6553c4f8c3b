import { describe, expect, it } from 'vitest'
import type { LiveSession } from '../../src/shared/domain'
import { sortLiveSessions } from '../../src/shared/live-order'
import type { Health } from '../../src/shared/reliability'

/** The core's verdict under the default levels (95 / 90), as the board would hand it out. */
const judged = (score: number): Health => (score < 90 ? 'critical' : score < 95 ? 'warning' : 'good')

function session(id: string, name: string, viewers: number, reliability: number, health: Health = judged(reliability)): LiveSession {
  return {
    connectionId: 'c',
    connectionName: 'C',
    eventSessionId: id,
    eventName: name,
    contentId: `content-${id}`,
    startedAt: `2026-11-21T10:0${id}:00Z`,
    updatedAt: '2026-11-21T11:00:00Z',
    hasEnded: false,
    viewersCount: viewers,
    reliabilityScore: reliability,
    cdnTraffic: viewers * 10,
    ecdnTraffic: viewers * 5,
    lastPolledAt: null,
    reliability,
    health,
    levels: { warning: 95, critical: 90, source: 'settings' },
    alert: null,
    latestPoint: null
  }
}

const sessions = [session('1', 'Bravo', 500, 99), session('2', 'Alpha', 900, 91), session('3', 'Charlie', 100, 91)]
const ids = (list: LiveSession[]): string[] => list.map((s) => s.eventSessionId)

describe('live wall ordering', () => {
  it('puts the worst reliability first, the bigger audience first among equals', () => {
    expect(ids(sortLiveSessions(sessions, 'trouble', false))).toEqual(['2', '3', '1'])
  })

  it('sorts by any column in both directions without mutating the input', () => {
    const copy = [...sessions]
    expect(ids(sortLiveSessions(sessions, 'viewers', true))).toEqual(['2', '1', '3'])
    expect(ids(sortLiveSessions(sessions, 'name', false))).toEqual(['2', '1', '3'])
    expect(ids(sortLiveSessions(sessions, 'started', true))).toEqual(['3', '2', '1'])
    expect(sessions).toEqual(copy)
  })

  it('breaks ties by name so rows do not jump between updates', () => {
    expect(ids(sortLiveSessions(sessions, 'reliability', false))).toEqual(['2', '3', '1'])
  })
})

describe('trouble first with the thresholds in use', () => {
  const list = [
    session('1', 'Good big', 5000, 99),
    session('2', 'Warning small', 50, 93),
    session('3', 'Critical small', 10, 80),
    session('4', 'Critical big', 800, 85),
    session('5', 'Warning big', 700, 94)
  ]

  it('puts critical then warning first, the biggest audience first within each', () => {
    expect(ids(sortLiveSessions(list, 'trouble', false))).toEqual(['4', '3', '5', '2', '1'])
  })

  it("follows each session's health as the core decided it (its own levels), not the score", () => {
    // Session 1 has strict levels of its own: critical at 99; session 4 is lenient: good at 85.
    const own = [{ ...list[0]!, health: 'critical' as const }, list[1]!, list[2]!, { ...list[3]!, health: 'good' as const }, list[4]!]
    expect(ids(sortLiveSessions(own, 'trouble', false))).toEqual(['1', '3', '5', '2', '4'])
  })

  it('puts a session the core could not judge after warnings, before good ones, and sorts it last by reliability', () => {
    const unknown = { ...session('6', 'No score', 10_000, 0), reliability: null, health: 'unknown' as const }
    expect(ids(sortLiveSessions([...list, unknown], 'trouble', false))).toEqual(['4', '3', '5', '2', '6', '1'])
    expect(ids(sortLiveSessions([...list, unknown], 'reliability', false)).at(-1)).toBe('6')
    expect(ids(sortLiveSessions([...list, unknown], 'reliability', true)).at(-1)).toBe('6')
  })
})

describe('columns that need more than the record', () => {
  const list = [session('1', 'A', 100, 99), session('2', 'B', 100, 99), session('3', 'C', 100, 99)]
  const rates: Record<string, number | null> = { '1': 300, '2': null, '3': 900 }

  it('sorts by traffic rate, sessions without a rate last in both directions', () => {
    const rate = (s: LiveSession) => rates[s.eventSessionId] ?? null
    expect(ids(sortLiveSessions(list, 'rate', true, { rate }))).toEqual(['3', '1', '2'])
    expect(ids(sortLiveSessions(list, 'rate', false, { rate }))).toEqual(['1', '3', '2'])
  })

  it('sorts by connection name, offload share and last poll', () => {
    const a = { ...session('1', 'A', 1, 99), connectionName: 'Zulu', cdnTraffic: 100, ecdnTraffic: 0, lastPolledAt: '2026-11-21T11:00:05Z' }
    const b = { ...session('2', 'B', 1, 99), connectionName: 'Alpha', cdnTraffic: 100, ecdnTraffic: 300, lastPolledAt: null }
    const c = { ...session('3', 'C', 1, 99), connectionName: 'Mike', cdnTraffic: 100, ecdnTraffic: 100, lastPolledAt: '2026-11-21T11:00:00Z' }
    expect(ids(sortLiveSessions([a, b, c], 'connection', false))).toEqual(['2', '3', '1'])
    expect(ids(sortLiveSessions([a, b, c], 'offload', true))).toEqual(['2', '3', '1'])
    expect(ids(sortLiveSessions([a, b, c], 'lastPoll', false))).toEqual(['3', '1', '2'])
  })
})
