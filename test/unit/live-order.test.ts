import { describe, expect, it } from 'vitest'
import type { LiveSession } from '../../src/shared/domain'
import { sortLiveSessions } from '../../src/shared/live-order'

function session(id: string, name: string, viewers: number, reliability: number): LiveSession {
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
    lastPolledAt: null
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
