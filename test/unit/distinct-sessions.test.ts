// A session listing that names a session twice becomes one entry per session (sync/distinct-sessions.ts).
import { describe, expect, it } from 'vitest'
import type { EventSessionRecord } from '../../src/main/core/api/schemas'
import { distinctSessions } from '../../src/main/core/sync/distinct-sessions'

const at = '2026-03-02T09:00:00.000Z'
const session = (id: string, viewersCount = 1): EventSessionRecord => ({
  eventSessionId: id, platformId: 'p', tenantId: 't', contentId: 'c', startedAt: at, updatedAt: at,
  hasEnded: false, viewersCount, reliabilityScore: 90, cdnTraffic: 0, ecdnTraffic: 0
})

describe('distinctSessions', () => {
  it('keeps a listing without repeats as it is', () => {
    const listed = [session('a'), session('b')]
    expect(distinctSessions(listed)).toEqual({ sessions: listed, repeated: [] })
  })

  it('keeps each session once, where first listed, with the record listed last, and names each repeated id once', () => {
    const listed = [session('a', 1), session('b', 1), session('a', 2), session('c'), session('b', 3), session('a', 4)]
    const { sessions, repeated } = distinctSessions(listed)
    expect(sessions.map((s) => [s.eventSessionId, s.viewersCount])).toEqual([['a', 4], ['b', 3], ['c', 1]])
    expect(repeated).toEqual(['a', 'b'])
  })
})
