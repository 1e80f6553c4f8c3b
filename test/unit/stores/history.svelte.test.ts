// history.svelte.ts: the History screen's query, the page it returned, and stale answers dropped.
import { describe, expect, it } from 'vitest'
import type { ConnectionView } from '../../../src/shared/connections'
import type { PastSession, PastSessionsPage } from '../../../src/shared/screens'
import { HISTORY_PAGE_SIZE, HistoryStore } from '../../../src/renderer/src/lib/stores/history.svelte'
import { ok } from '../../../src/shared/result'
import { FakeClient } from './fake-client'

const row = (eventSessionId: string) => ({ connectionId: 'c1', eventSessionId, eventName: `Event ${eventSessionId}` }) as PastSession
const page = (ids: string[], total = ids.length): PastSessionsPage => ({ rows: ids.map(row), total, cachedAsOf: '2026-11-14T09:00:00.000Z' })
const rowIds = (history: HistoryStore) => history.rows.map((r) => r.eventSessionId)

/** Two queries in flight, the older first, each answered when the test settles it. */
function twoQueries() {
  const client = new FakeClient()
  const held = client.hold('pastSessions')
  const history = new HistoryStore()
  const older = history.load(client, 'utc')
  history.search = 'launch'
  const newer = history.load(client, 'utc')
  return { history, older: { ...held[0]!, done: older }, newer: { ...held[1]!, done: newer } }
}

describe('HistoryStore.load', () => {
  it('asks for the first page, newest first, and keeps what came back', async () => {
    const client = new FakeClient().succeed('pastSessions', page(['a', 'b'], 2))
    const history = new HistoryStore()
    await history.load(client, 'utc')
    expect(client.argsOf('pastSessions')).toEqual([{ sort: 'started', descending: true, includeLive: false, limit: HISTORY_PAGE_SIZE, offset: 0 }])
    expect(rowIds(history)).toEqual(['a', 'b'])
    expect(history).toMatchObject({ total: 2, cachedAsOf: '2026-11-14T09:00:00.000Z', loaded: true, loading: false, error: null })
    expect(history.pageCount).toBe(1)
  })

  it('sends the filters: trimmed search (at most 200 characters), connection, page offset and whole days', async () => {
    const client = new FakeClient().succeed('pastSessions', page(['a'], 500))
    const history = new HistoryStore()
    Object.assign(history, { search: `  town hall${'x'.repeat(300)}  `, connectionId: 'c1', page: 2, fromDay: '2026-11-14', toDay: '2026-11-21' })
    expect(history.filtered).toBe(true)
    await history.load(client, 'utc')
    const [args] = client.argsOf('pastSessions')
    expect(args).toMatchObject({ connectionId: 'c1', offset: 2 * HISTORY_PAGE_SIZE, from: '2026-11-14T00:00:00.000Z', to: '2026-11-22T00:00:00.000Z' })
    expect(args?.search).toHaveLength(200)
    expect(args?.search?.startsWith('town hall')).toBe(true)
  })

  it('explains a date filter it cannot use, and runs the query without it meanwhile', async () => {
    const client = new FakeClient().succeed('pastSessions', page(['a']))
    const history = new HistoryStore()
    Object.assign(history, { fromDay: '2026-11-21', toDay: '2026-11-14' })
    await history.load(client, 'utc')
    expect(history.rangeProblem).toMatch(/after/)
    expect(client.argsOf('pastSessions')[0]).not.toHaveProperty('from')
    expect(client.argsOf('pastSessions')[0]).not.toHaveProperty('to')
    expect(rowIds(history)).toEqual(['a'])

    history.toDay = '2026-11-30'
    await history.load(client, 'utc')
    expect(history.rangeProblem).toBeNull()
    expect(client.argsOf('pastSessions')[1]).toMatchObject({ from: '2026-11-21T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' })
  })

  it('keeps the error and the last page after a failed request, and clears the error on the next success', async () => {
    const client = new FakeClient().succeed('pastSessions', page(['a']))
    const history = new HistoryStore()
    await history.load(client, 'local')
    client.refuse('pastSessions', 'The cache is busy.')
    await history.load(client, 'local')
    expect(history).toMatchObject({ error: 'The cache is busy.', loading: false, loaded: true })
    expect(rowIds(history)).toEqual(['a'])

    client.succeed('pastSessions', page(['b']))
    await history.load(client, 'local')
    expect(history.error).toBeNull()
    expect(rowIds(history)).toEqual(['b'])
  })

  it('an older answer arriving first neither shows nor ends the newer query', async () => {
    const { history, older, newer } = twoQueries()
    older.settle(ok(page(['old'])))
    await older.done
    expect(history).toMatchObject({ loading: true, loaded: false, rows: [] })
    newer.settle(ok(page(['new'])))
    await newer.done
    expect(history.loading).toBe(false)
    expect(rowIds(history)).toEqual(['new'])
  })

  it('an older answer arriving last is dropped, a failure too', async () => {
    const { history, older, newer } = twoQueries()
    newer.settle(ok(page(['new'])))
    await newer.done
    older.settle({ ok: false, error: { code: 'internal', message: 'too late' } })
    await older.done
    expect(rowIds(history)).toEqual(['new'])
    expect(history.error).toBeNull()
  })

  it('goes to the last page when the page asked for no longer exists', async () => {
    const client = new FakeClient().answer('pastSessions', ({ offset = 0 }) => ok(page(offset === 0 ? ['first'] : ['last'], HISTORY_PAGE_SIZE + 1)))
    const history = new HistoryStore()
    history.page = 5
    await history.load(client, 'utc')
    expect(history.page).toBe(1)
    expect(client.argsOf('pastSessions').map((a) => a.offset)).toEqual([5 * HISTORY_PAGE_SIZE, HISTORY_PAGE_SIZE])
    expect(history.pageCount).toBe(2)
  })
})

describe('HistoryStore', () => {
  it('has one page even when empty, and no filter until one is set', () => {
    const history = new HistoryStore()
    expect(history.pageCount).toBe(1)
    expect(history.filtered).toBe(false)
    history.search = '   '
    expect(history.filtered).toBe(false)
  })

  it('sortBy: the same column flips the order; a new one starts newest, biggest, A to Z or worst first; back to page 0', () => {
    const history = new HistoryStore()
    history.page = 3
    history.sortBy('started')
    expect([history.sort, history.descending, history.page]).toEqual(['started', false, 0])
    const starts = (['viewers', 'name', 'reliability', 'started'] as const).map((sort) => {
      history.sortBy(sort)
      return [sort, history.descending]
    })
    expect(starts).toEqual([
      ['viewers', true],
      ['name', false],
      ['reliability', false],
      ['started', true]
    ])
  })

  it('loadConnections keeps ids and names, and keeps the old list when the request fails', async () => {
    const client = new FakeClient().succeed('listConnections', [{ id: 'c1', name: 'North', baseUrl: 'https://x' } as ConnectionView])
    const history = new HistoryStore()
    await history.loadConnections(client)
    expect(history.connections).toEqual([{ id: 'c1', name: 'North' }])
    client.refuse('listConnections', 'offline')
    await history.loadConnections(client)
    expect(history.connections).toEqual([{ id: 'c1', name: 'North' }])
  })
})
