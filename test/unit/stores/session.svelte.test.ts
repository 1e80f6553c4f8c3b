// session.svelte.ts: one session's drill-down — record, cached summary, chart, breakdown — and
// a refresh through the core.
import { describe, expect, it } from 'vitest'
import type { LiveSession } from '../../../src/shared/domain'
import type { BreakdownDimension, BreakdownRow, ChartSeries, PastSession } from '../../../src/shared/screens'
import { CHART_POINTS, SessionStore, STORY_POINTS } from '../../../src/renderer/src/lib/stores/session.svelte'
import { ok } from '../../../src/shared/result'
import { FakeClient } from './fake-client'

const key = { connectionId: 'c1', eventSessionId: 's1' }
const live = (hasEnded = false) => ({ ...key, eventName: 'Town hall', hasEnded }) as LiveSession
const past = (eventSessionId: string, eventName: string) => ({ connectionId: 'c1', eventSessionId, eventName, peakViewers: 900 }) as PastSession
const chart = { points: [] } as unknown as ChartSeries
const rows = (dimension: string) => [{ key: dimension, viewers: 10 } as BreakdownRow]

/** A client that knows the session: live, cached among others the search also matched. */
function knownSession(record: LiveSession | null = live()) {
  return new FakeClient()
    .succeed('getSession', record)
    .succeed('pastSessions', { rows: [past('s10', 'Other'), past('s1', 'Town hall (cached)')], total: 2, cachedAsOf: null })
    .succeed('sessionChart', chart)
    .answer('breakdown', ({ dimension }) => ok(rows(dimension)))
    .succeed('sessionStory', null)
}

describe('SessionStore.load', () => {
  it('reads the record, its cached summary, its chart and the breakdown in use', async () => {
    const client = knownSession()
    const session = new SessionStore(client, key)
    await session.load()
    expect(session).toMatchObject({ loaded: true, error: null, chart, breakdown: rows('site') })
    expect(session.session?.eventName).toBe('Town hall')
    expect(session.summary?.eventSessionId).toBe('s1')
    expect(session.eventName).toBe('Town hall')
    expect(session.isLive).toBe(true)
    expect(client.argsOf('getSession')).toEqual([key])
    expect(client.argsOf('pastSessions')).toEqual([{ connectionId: 'c1', search: 's1', includeLive: true, sort: 'started', limit: 20 }])
    expect(client.argsOf('sessionChart')).toEqual([{ ...key, maxPoints: CHART_POINTS }])
    expect(client.argsOf('sessionStory')).toEqual([{ ...key, maxPoints: STORY_POINTS }])
    expect(session.story).toBeNull()
  })

  it('a session the live table forgot is not live, and takes its name from the cache', async () => {
    const session = new SessionStore(knownSession(null), key)
    await session.load()
    expect(session.session).toBeNull()
    expect(session.isLive).toBe(false)
    expect(session.eventName).toBe('Town hall (cached)')
  })

  it('an ended session is not live', async () => {
    const session = new SessionStore(knownSession(live(true)), key)
    await session.loadRecord()
    expect(session.isLive).toBe(false)
  })

  it('has no summary when the cache has no row for exactly this session', async () => {
    const session = new SessionStore(knownSession().succeed('pastSessions', { rows: [past('s10', 'Other')], total: 1, cachedAsOf: null }), key)
    await session.loadRecord()
    expect(session.summary).toBeNull()
  })

  it.each(['getSession', 'sessionChart', 'breakdown'] as const)('keeps the error when %s fails, and shows what else came', async (name) => {
    const session = new SessionStore(knownSession().refuse(name, `${name} failed`), key)
    await session.load()
    expect(session.error).toBe(`${name} failed`)
    expect(session.loaded).toBe(true)
    expect(session.summary?.eventSessionId).toBe('s1')
  })
})

describe('SessionStore.loadBreakdown', () => {
  /** Picks `first`, then `second`, before either answer comes; the answers wait for the test. */
  function pickTwice(first: BreakdownDimension, second: BreakdownDimension) {
    const client = knownSession()
    const held = client.hold('breakdown')
    const session = new SessionStore(client, key)
    const done = Promise.all([session.loadBreakdown(first), session.loadBreakdown(second)])
    return { session, held, done }
  }

  it('switches the dimension at once and drops the answer for a dimension no longer picked', async () => {
    const { session, held, done } = pickTwice('deviceType', 'os')
    expect(session.dimension).toBe('os')
    expect(held.map((h) => h.args.dimension)).toEqual(['deviceType', 'os'])
    held[1]!.settle(ok(rows('os')))
    held[0]!.settle(ok(rows('deviceType')))
    await done
    expect(session.breakdown).toEqual(rows('os'))
  })

  it('a stale failure does not set the error', async () => {
    const { session, held, done } = pickTwice('app', 'site')
    held[0]!.settle({ ok: false, error: { code: 'internal', message: 'stale' } })
    held[1]!.settle(ok(rows('site')))
    await done
    expect(session.error).toBeNull()
    expect(session.breakdown).toEqual(rows('site'))
  })
})

describe('SessionStore.refresh', () => {
  it('is refreshing while the core works, then reloads what shows the session', async () => {
    const client = knownSession()
    const held = client.hold('refreshSession')
    const session = new SessionStore(client, key)
    session.refreshMessage = 'Refresh failed: earlier'
    const refreshing = session.refresh()
    expect(session).toMatchObject({ refreshing: true, refreshMessage: null })
    expect(client.argsOf('getSession')).toEqual([])
    held[0]!.settle(ok({ viewers: 42 }))
    expect(await refreshing).toBe(true)
    expect(session).toMatchObject({ refreshing: false, loaded: true, refreshMessage: null })
    expect(client.argsOf('refreshSession')).toEqual([key])
    expect(client.argsOf('getSession')).toEqual([key])
  })

  it('says why a refresh failed, and reloads nothing', async () => {
    const client = knownSession().refuse('refreshSession', 'The service did not answer.')
    const session = new SessionStore(client, key)
    expect(await session.refresh()).toBe(false)
    expect(session).toMatchObject({ refreshing: false, refreshMessage: 'Refresh failed: The service did not answer.', loaded: false })
    expect(client.calls.map((c) => c.name)).toEqual(['refreshSession'])
  })
})
