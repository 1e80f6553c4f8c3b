// What ReportingClient sends (headers, every query parameter of the spec, exactly as given)
// and how it pages, checked from the simulator's side over real loopback HTTP.
import { describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { ApiError } from '../../src/main/core/api/errors'
import type { RunningSimulator } from '../../src/main/core/simulator/server'
import { T0 } from '../support/fake-clock'
import { simulatorClient, simulatorTarget } from '../support/simulator-connection'

/** The last data request's query as [name, value] pairs, in order. */
const lastQuery = (sim: RunningSimulator): [string, string][] => [...new URLSearchParams(sim.stats.lastDataRequest?.query)]

describe('headers', () => {
  it('sends Authorization, platform-id and tenant-id on every data request', async () => {
    const { sim, client } = await simulatorClient({ sessionsPageSize: 3, viewersPageSize: 5 })
    const { sessions } = await client.listSessions()
    await client.getSession(sessions[0]!.eventSessionId)
    await client.listViewers(sessions[0]!.eventSessionId)
    const data = sim.stats.log.filter((r) => r.path.startsWith('/v1/'))
    expect(data.length).toBeGreaterThan(5)
    for (const r of data) {
      expect(r.headers.authorization).toMatch(/^Bearer \S+$/)
      expect(r.headers['platform-id']).toBe('demo-platform')
      expect(r.headers['tenant-id']).toBe('demo-tenant')
      expect(r.headers.origin).toBeUndefined()
      expect(r.headers.referer).toBeUndefined()
    }
  })

  it('sends Origin and Referer when the connection sets them', async () => {
    const { sim, client } = await simulatorClient({ sessionsPageSize: 4 }, {}, {
      origin: 'https://noc.example.com',
      referer: 'https://noc.example.com/eventwatch'
    })
    const { sessions } = await client.listSessions()
    await client.listViewers(sessions[0]!.eventSessionId)
    const data = sim.stats.log.filter((r) => r.path.startsWith('/v1/'))
    for (const r of data) {
      expect(r.headers.origin).toBe('https://noc.example.com')
      expect(r.headers.referer).toBe('https://noc.example.com/eventwatch')
    }
    // Not on the token request: the spec lists them for the data operations.
    const token = sim.stats.log.find((r) => r.endpoint === 'POST /v2/auth/token')
    expect(token?.headers.origin).toBeUndefined()
  })
})

describe('list parameters', () => {
  it('sends no parameter the caller did not set', async () => {
    const { sim, client } = await simulatorClient()
    await client.listSessions()
    expect(sim.stats.lastDataRequest?.query).toBe('')
    await client.listSessions({ aggr: '', orderBy: '', orderAsc: '', startedAtFrom: '' })
    expect(sim.stats.lastDataRequest?.query).toBe('')
    await client.getSession(sim.world.sessions[0]!.eventSessionId)
    expect(sim.stats.lastDataRequest?.query).toBe('')
  })

  it('sends every parameter of the spec exactly as given, dates as ISO 8601 instants', async () => {
    const { sim, client } = await simulatorClient()
    await client.listSessions({
      startedAtFrom: new Date(T0 - 30 * 86_400_000),
      startedAtTo: '2025-03-10T11:00:00+02:00',
      endedAtFrom: new Date('2025-01-01T00:00:00Z'),
      endedAtTo: '2030-01-01T00:00:00.000Z',
      aggr: 'viewers,traffic',
      orderBy: 'startedAt',
      orderAsc: false
    })
    expect(lastQuery(sim)).toEqual([
      ['startedAtFrom', new Date(T0 - 30 * 86_400_000).toISOString()],
      ['startedAtTo', '2025-03-10T09:00:00.000Z'],
      ['endedAtFrom', '2025-01-01T00:00:00.000Z'],
      ['endedAtTo', '2030-01-01T00:00:00.000Z'],
      ['aggr', 'viewers,traffic'],
      ['orderBy', 'startedAt'],
      ['orderAsc', 'false']
    ])
  })

  it('sends orderAsc true, and a string orderAsc as it is', async () => {
    const { sim, client } = await simulatorClient()
    await client.listSessions({ orderAsc: true })
    expect(lastQuery(sim)).toEqual([['orderAsc', 'true']])
    await client.listSessions({ orderAsc: 'asc' })
    expect(lastQuery(sim)).toEqual([['orderAsc', 'asc']])
  })

  it('keeps the filters on every page and adds the cursor the service gave', async () => {
    const { sim, client } = await simulatorClient({ sessionsPageSize: 4 })
    const from = new Date(T0 - 365 * 86_400_000)
    const list = await client.listSessions({ startedAtFrom: from, aggr: 'x' })
    expect(list.pages).toBe(3)
    const queries = sim.stats.log.filter((r) => r.endpoint === 'GET /v1/events/sessions').map((r) => new URLSearchParams(r.query))
    expect(queries.length).toBe(3)
    for (const q of queries) {
      expect(q.get('startedAtFrom')).toBe(from.toISOString())
      expect(q.get('aggr')).toBe('x')
    }
    expect(queries[0]?.has('cursor')).toBe(false)
    expect(queries[1]?.get('cursor')).toEqual(expect.any(String))
    expect(queries[2]?.get('cursor')).not.toBe(queries[1]?.get('cursor'))
  })

  it('starts from a given cursor', async () => {
    const { sim, client } = await simulatorClient({ sessionsPageSize: 4 })
    await client.listSessions()
    const second = new URLSearchParams(sim.stats.log.filter((r) => r.endpoint === 'GET /v1/events/sessions')[1]?.query)
    const cursor = second.get('cursor')!
    sim.stats.reset()
    const rest = await client.listSessions({ cursor })
    expect(rest.pages).toBe(2)
    expect(rest.sessions.length).toBe(6)
    expect(new URLSearchParams(sim.stats.log.find((r) => r.path === '/v1/events/sessions')?.query).get('cursor')).toBe(cursor)
  })

  it('filters as the simulator understands the dates', async () => {
    const { sim, client } = await simulatorClient()
    const live = await client.listSessions({ startedAtFrom: new Date(T0 - 86_400_000) })
    const all = sim.world.sessions.filter((s) => s.startedAt >= T0 - 86_400_000)
    expect(live.sessions.length).toBe(all.length)
  })

  it.each([
    ['an invalid Date', { startedAtFrom: new Date('nope') }],
    ['an unreadable string', { endedAtTo: 'last tuesday-ish' }]
  ])('refuses %s with a configuration error before any request', async (_label, params) => {
    const { sim, client } = await simulatorClient()
    const error = await client.listSessions(params).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).kind).toBe('configuration')
    expect((error as ApiError).message).toMatch(/(startedAtFrom|endedAtTo) is not a valid date-time/)
    expect(sim.stats.log).toEqual([]) // not even a token
  })

  it('sends aggr on the get call only when set', async () => {
    const { sim, client } = await simulatorClient()
    const id = sim.world.sessions[0]!.eventSessionId
    await client.getSession(id, { aggr: 'full detail' })
    expect(lastQuery(sim)).toEqual([['aggr', 'full detail']])
    expect(sim.stats.lastDataRequest?.path).toBe(`/v1/events/sessions/${id}`)
  })
})

describe('listViewers', () => {
  it('reaches every viewer exactly once across pages', async () => {
    const { sim, client } = await simulatorClient({ viewersPerSession: 60, viewersPageSize: 7 })
    const session = sim.world.sessions.find((s) => !s.hasEnded)!
    const expected = session.viewers.map((v) => v.viewerId)
    expect(expected.length).toBeGreaterThan(14)
    const list = await client.listViewers(session.eventSessionId)
    expect(list.skipped).toEqual([])
    expect(list.pages).toBe(Math.ceil(expected.length / 7))
    expect(sim.stats.count('viewers')).toBe(list.pages)
    const ids = list.viewers.map((v) => v.viewerId)
    expect(ids.length).toBe(expected.length)
    expect(new Set(ids)).toEqual(new Set(expected))
    expect(list.viewers[0]?.networkConnections?.length).toBeGreaterThan(0)
  })

  it('sends only the cursor as a parameter', async () => {
    const { sim, client } = await simulatorClient({ viewersPerSession: 60, viewersPageSize: 25 })
    const id = sim.world.sessions.find((s) => !s.hasEnded)!.eventSessionId
    await client.listViewers(id)
    const queries = sim.stats.log.filter((r) => r.endpoint === 'GET /v1/events/sessions/{id}/viewers').map((r) => r.query)
    expect(queries[0]).toBe('')
    for (const q of queries.slice(1)) expect([...new URLSearchParams(q).keys()]).toEqual(['cursor'])
  })

  it('says not-found for an unknown session', async () => {
    const { client } = await simulatorClient()
    const error = await client.listViewers('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e)
    expect((error as ApiError).kind).toBe('not-found')
  })
})

describe('page bound', () => {
  it('stops a listing past maxPages with a response-format error', async () => {
    const { sim, client } = await simulatorClient({ sessionsPageSize: 3 }, { maxPages: 2 })
    const error = await client.listSessions().catch((e: unknown) => e)
    expect((error as ApiError).kind).toBe('response-format')
    expect((error as ApiError).message).toMatch(/more than 2 pages/)
    expect(sim.stats.count('sessions')).toBe(2)
  })

  it('lets a listing of exactly maxPages through', async () => {
    const { client } = await simulatorClient({ sessionsPageSize: 5 }, { maxPages: 2 })
    expect((await client.listSessions()).pages).toBe(2)
  })
})

describe('construction and listeners', () => {
  it('works with two arguments (defaults for everything)', async () => {
    const { sim } = await simulatorClient()
    const client = new ReportingClient(simulatorTarget(sim), async () => sim.credentials)
    expect((await client.listSessions()).sessions.length).toBe(10)
  })

  it('is not upset by a diagnostics listener that throws', async () => {
    const { sim } = await simulatorClient()
    const client = new ReportingClient(simulatorTarget(sim), async () => sim.credentials, {
      retry: { sleep: async () => {} },
      onDiagnostic: () => {
        throw new Error('listener broke')
      }
    })
    sim.faults.serverErrors(1).driftSchema()
    const list = await client.listSessions()
    expect(list.skipped.length).toBeGreaterThan(0)
  })

  it('reports the first skips one by one and the rest as one line', async () => {
    const { sim, client, diagnostics } = await simulatorClient({ viewersPerSession: 400, viewersPageSize: 500 })
    const id = sim.world.sessions.find((s) => !s.hasEnded && s.viewers.length >= 100)?.eventSessionId
    expect(id).toBeDefined()
    sim.faults.driftSchema()
    const list = await client.listViewers(id!)
    expect(list.skipped.length).toBeGreaterThan(21)
    const notes = diagnostics.filter((d) => d.message.startsWith('skipped'))
    expect(notes.length).toBe(21)
    expect(notes[20]?.message).toBe(`skipped ${list.skipped.length - 20} more records that do not match the schema`)
    expect(notes[0]?.message).toMatch(/^skipped a viewer record of session \S+: viewerId is missing$/)
  })
})
