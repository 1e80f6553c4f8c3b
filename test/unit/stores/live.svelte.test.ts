// live.svelte.ts: the board read once, then patched by sessionsChanged pushes; trends asked for
// in one liveTrends request while Live or the wall is on screen, and for new sessions only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChartPoint } from '../../../src/shared/chart-point'
import type { LiveSession, SessionsChanged } from '../../../src/shared/domain'
import { LiveStore } from '../../../src/renderer/src/lib/stores/live.svelte'
import { ok } from '../../../src/shared/result'
import { PushingClient } from './pushing-client'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const point = (takenAt: number): ChartPoint => ({
  takenAt, viewersCount: 1, reliability: 99, cdnTraffic: 0, ecdnTraffic: 0, minReliability: 99, maxViewersCount: 1, samples: 1
})
const row = (id: string, latest: number | null = null) =>
  ({ connectionId: 'c1', eventSessionId: id, viewersCount: 10, latestPoint: latest === null ? null : point(latest) }) as LiveSession
const key = (id: string) => ({ connectionId: 'c1', eventSessionId: id })
const change = (revision: number, rows: LiveSession[], removed: string[] = [], epoch = 'e1'): SessionsChanged => ({
  revision, epoch, at: new Date(NOW).toISOString(), liveCount: 0, storedCount: 0, rows, removed: removed.map(key)
})
const ids = (store: LiveStore) => store.sessions.map((s) => s.eventSessionId)

function setUp(sessions: LiveSession[], revision = 5, clock = () => NOW) {
  const client = new PushingClient()
    .succeed('listLiveSessions', { revision, epoch: 'e1', sessions })
    .refuse('getStatus', 'not in this spec')
    .answer('liveTrends', ({ sessions: asked }) => ok({ trends: asked.map((k) => ({ ...k, points: [point(NOW - 60_000)] })) }))
  const store = new LiveStore(clock)
  store.connect(client)
  return { client, store }
}

const settle = async () => {
  await vi.advanceTimersByTimeAsync(1000)
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('LiveStore: the board, then pushes', () => {
  it('reads the board once and patches it from pushes, without asking again', async () => {
    const { client, store } = setUp([row('a'), row('b')])
    await settle()
    client.push('sessionsChanged', change(6, [row('b'), row('c')], ['a']))
    client.push('sessionsChanged', change(7, [row('d')]))
    expect(ids(store)).toEqual(['b', 'c', 'd'])
    expect(client.argsOf('listLiveSessions')).toHaveLength(1)
  })

  it('ignores a push no newer than the board it holds', async () => {
    const { client, store } = setUp([row('a')], 5)
    await settle()
    client.push('sessionsChanged', change(5, [row('x')]))
    client.push('sessionsChanged', change(4, [], ['a']))
    expect(ids(store)).toEqual(['a'])
  })

  it('applies pushes that came while the board was being read over it', async () => {
    const client = new PushingClient().refuse('getStatus', 'not in this spec')
    const held = client.hold('listLiveSessions')
    const store = new LiveStore(() => NOW)
    store.connect(client)
    client.push('sessionsChanged', change(3, [row('old')]))
    client.push('sessionsChanged', change(4, [row('b')], ['a']))
    held[0]!.settle(ok({ revision: 3, epoch: 'e1', sessions: [row('a'), row('old')] }))
    await settle()
    expect(ids(store)).toEqual(['old', 'b'])
  })

  it('reads the board again when pushes were missed', async () => {
    const { client, store } = setUp([row('a')], 5)
    await settle()
    client.succeed('listLiveSessions', { revision: 9, epoch: 'e1', sessions: [row('z')] })
    client.push('sessionsChanged', change(9, [row('z')]))
    await settle()
    expect(client.argsOf('listLiveSessions')).toHaveLength(2)
    expect(ids(store)).toEqual(['z'])
  })

  it('takes the board of a restarted core whole, though it counts from lower (a new epoch), then follows it', async () => {
    const { client, store } = setUp([row('a'), row('b')], 500)
    await settle()
    client.succeed('listLiveSessions', { revision: 1, epoch: 'e2', sessions: [row('n')] })
    client.push('sessionsChanged', change(1, [row('n')], ['a', 'b'], 'e2'))
    await settle()
    expect(client.argsOf('listLiveSessions')).toHaveLength(2)
    expect(ids(store)).toEqual(['n'])
    client.push('sessionsChanged', change(2, [row('m')], [], 'e2'))
    // The old core's word, late: of another epoch again, so the board is read (and stays the new one's).
    client.push('sessionsChanged', change(501, [row('old')], [], 'e1'))
    await settle()
    expect(ids(store)).toEqual(['n'])
    expect(client.argsOf('listLiveSessions')).toHaveLength(3)
  })
})

describe('LiveStore: trends', () => {
  it('asks for nothing while no screen shows trends', async () => {
    const { client } = setUp([row('a'), row('b')])
    await settle()
    client.push('sessionsChanged', change(6, [row('c')]))
    await settle()
    expect(client.argsOf('liveTrends')).toEqual([])
  })

  it('asks once for every session when a screen opens, then only for sessions that appear, however many polls', async () => {
    const { client, store } = setUp([row('a'), row('b')])
    await settle()
    const hide = store.showTrends()
    await settle()
    expect(client.argsOf('liveTrends').map((a) => a.sessions)).toEqual([[key('a'), key('b')]])
    expect(client.argsOf('liveTrends')[0]?.from).toBe(new Date(NOW - 3_600_000).toISOString())
    for (let revision = 6; revision < 16; revision++) client.push('sessionsChanged', change(revision, [row('a', NOW - 16_000 + revision * 1000)]))
    client.push('sessionsChanged', change(16, [row('c'), row('d')]))
    await settle()
    expect(client.argsOf('liveTrends').map((a) => a.sessions)).toEqual([[key('a'), key('b')], [key('c'), key('d')]])
    // The pushes' newest snapshots grew a's trend after what was fetched.
    expect(store.trends['c1/a']).toHaveLength(11)
    hide()
    client.push('sessionsChanged', change(17, [row('e')]))
    await settle()
    expect(client.argsOf('liveTrends')).toHaveLength(2)
  })

  it('keeps only the last hour, skips a snapshot it has, and drops the trend of a session that left', async () => {
    let now = NOW
    const { client, store } = setUp([row('a')], 5, () => now)
    await settle()
    store.showTrends()
    await settle()
    client.push('sessionsChanged', change(6, [row('a', NOW - 60_000)]))
    expect(store.trends['c1/a']?.map((p) => p.takenAt)).toEqual([NOW - 60_000])
    now = NOW + 3_600_000
    client.push('sessionsChanged', change(7, [row('a', now - 1000)]))
    expect(store.trends['c1/a']?.map((p) => p.takenAt)).toEqual([now - 1000])
    client.push('sessionsChanged', change(8, [], ['a']))
    expect(store.trends['c1/a']).toBeUndefined()
  })
})
