// ReportingClient (src/main/core/api/client.ts): against the simulator over loopback, and against
// a small hand-written server that answers in quirky but possible ways.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import type { ConnectionTarget, Credentials } from '../../src/main/core/api/connection'
import { ApiError } from '../../src/main/core/api/errors'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import { fakeClock } from '../support/fake-clock'


const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()))
})

/** Credentials callback that counts calls: TokenManager asks for credentials on every renewal. */
function countingCredentials(creds: Credentials) {
  const counter = {
    calls: 0,
    fn: async (): Promise<Credentials> => {
      counter.calls++
      return creds
    }
  }
  return counter
}

async function simulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ viewersPerSession: 20, churnSessions: false, ...options })
  cleanups.push(() => sim.close())
  return sim
}

function targetFor(sim: { baseUrl: string; authUrl: string }, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return {
    id: 'test',
    name: 'Test tenant',
    baseUrl: sim.baseUrl,
    authUrl: sim.authUrl,
    platformId: 'demo-platform',
    tenantId: 'demo-tenant',
    clientId: 'demo-client',
    ...overrides
  }
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected the call to fail')
}

describe('ReportingClient against the simulator', () => {
  it('lists every session across pages', async () => {
    const sim = await simulator({ liveSessions: 5, endedSessions: 12, sessionsPageSize: 4, clock: fakeClock().now })
    const creds = countingCredentials(sim.credentials)
    const client = new ReportingClient(targetFor(sim), creds.fn)
    const list = await client.listSessions()
    expect(list.pages).toBe(5)
    expect(list.skipped).toEqual([])
    const ids = list.sessions.map((s) => s.eventSessionId)
    expect(ids.length).toBe(17)
    expect(new Set(ids)).toEqual(new Set(sim.world.sessions.map((s) => s.eventSessionId)))
    expect(list.sessions.filter((s) => !s.hasEnded).length).toBe(5)
    // One token served every page.
    expect(creds.calls).toBe(1)
  })

  it('gets one session as the simulator serves it', async () => {
    const sim = await simulator({ clock: fakeClock().now })
    const client = new ReportingClient(targetFor(sim), async () => sim.credentials)
    const { sessions } = await client.listSessions()
    const live = sessions.find((s) => !s.hasEnded)!
    const record = await client.getSession(live.eventSessionId)
    expect(record).toEqual(live)
    expect(record.platformId).toBe('demo-platform')
    expect(typeof record.viewersCount).toBe('number')
  })

  it('turns a 404 for an unknown session into a not-found ApiError', async () => {
    const sim = await simulator()
    const client = new ReportingClient(targetFor(sim), async () => sim.credentials)
    const error = await rejection(client.getSession('00000000-0000-4000-8000-000000000000'))
    expect(error.kind).toBe('not-found')
    expect(error.status).toBe(404)
  })

  it('reuses one token across calls', async () => {
    const sim = await simulator({ clock: fakeClock().now })
    const creds = countingCredentials(sim.credentials)
    const client = new ReportingClient(targetFor(sim), creds.fn)
    const { sessions } = await client.listSessions()
    for (const s of sessions.slice(0, 5)) await client.getSession(s.eventSessionId)
    await client.listSessions()
    expect(creds.calls).toBe(1)
  })

  it('shares one token request between concurrent first calls', async () => {
    const sim = await simulator({ clock: fakeClock().now })
    const creds = countingCredentials(sim.credentials)
    const client = new ReportingClient(targetFor(sim), creds.fn)
    await Promise.all([client.listSessions(), client.listSessions(), client.listSessions()])
    expect(creds.calls).toBe(1)
  })

  it('renews the token five minutes before it expires, on the clock it is given', async () => {
    const clock = fakeClock()
    const sim = await simulator({ clock: clock.now, tokenLifetimeSeconds: 900 })
    const creds = countingCredentials(sim.credentials)
    const client = new ReportingClient(targetFor(sim), creds.fn, { clock: clock.now })

    await client.listSessions()
    expect(creds.calls).toBe(1)
    clock.advance(9 * 60_000) // 6 minutes left: still good
    await client.listSessions()
    expect(creds.calls).toBe(1)
    clock.advance(2 * 60_000) // 4 minutes left: inside the renewal margin
    await client.listSessions()
    expect(creds.calls).toBe(2)
    clock.advance(60_000) // the new token is fresh
    await client.listSessions()
    expect(creds.calls).toBe(2)
  })

  it('recovers from a token the service already expired: one renewal, one retry', async () => {
    const simClock = fakeClock()
    const clientClock = fakeClock() // the client's clock lags: it believes its token is fresh
    const sim = await simulator({ clock: simClock.now, tokenLifetimeSeconds: 900 })
    const creds = countingCredentials(sim.credentials)
    const client = new ReportingClient(targetFor(sim), creds.fn, { clock: clientClock.now })
    await client.listSessions()
    simClock.advance(901_000)
    const list = await client.listSessions()
    expect(list.sessions.length).toBeGreaterThan(0)
    expect(creds.calls).toBe(2)
  })

  it('fails at once with kind auth for a wrong secret', async () => {
    const sim = await simulator()
    const creds = countingCredentials({ clientId: sim.credentials.clientId, clientSecret: 'wrong' })
    const client = new ReportingClient(targetFor(sim), creds.fn)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('authentication')
    expect(error.message).not.toContain('wrong')
    expect(creds.calls).toBe(1)
  })

  it('reports a wrong tenant as kind permission with status 403', async () => {
    const sim = await simulator()
    const client = new ReportingClient(targetFor(sim, { tenantId: 'someone-else' }), async () => sim.credentials)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('permission')
    expect(error.status).toBe(403)
  })

  it('reports a closed port as kind network', async () => {
    const sim = await simulator()
    const { baseUrl } = sim
    await sim.close()
    const sleeps: number[] = []
    const client = new ReportingClient(
      targetFor({ baseUrl, authUrl: baseUrl }),
      async () => ({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
      { retry: { sleep: async (ms) => void sleeps.push(ms) } }
    )
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/connection refused/)
    // A refused connection may be a restart in progress: retried up to the bound, then reported.
    expect(sleeps.length).toBe(3)
  })
})

// ---------------------------------------------------------------------------------------------

interface Hit {
  method: string
  path: string
  url: URL
  headers: IncomingMessage['headers']
}

type Reply = { status?: number; json?: unknown; text?: string; contentType?: string }

/** A tiny reporting API: the token endpoint always works; data requests go to `answer`. */
async function quirkyServer(answer: (hit: Hit, dataIndex: number) => Reply) {
  const hits: Hit[] = []
  let tokens = 0
  let dataRequests = 0
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://quirky.invalid')
    const hit: Hit = { method: req.method ?? '', path: url.pathname, url, headers: req.headers }
    hits.push(hit)
    req.resume()
    req.on('end', () => {
      let reply: Reply
      if (url.pathname === '/v2/auth/token') {
        tokens++
        reply = { json: { token_type: 'bearer', expires_in: 10800, access_token: `token-${tokens}` } }
      } else {
        reply = answer(hit, dataRequests++)
      }
      const body = reply.text ?? JSON.stringify(reply.json)
      res.writeHead(reply.status ?? 200, { 'Content-Type': reply.contentType ?? 'application/json' })
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  const origin = `http://127.0.0.1:${port}`
  // Retries are tested in api-retries.test.ts; here they must not sleep.
  const client = new ReportingClient(
    targetFor({ baseUrl: origin, authUrl: origin }),
    async () => ({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
    { retry: { sleep: async () => {} } }
  )
  return {
    client,
    hits,
    get tokens() {
      return tokens
    },
    get dataRequests() {
      return dataRequests
    }
  }
}

let seq = 0
function session(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq++
  return {
    eventSessionId: `5e55a0${String(seq).padStart(2, '0')}-0000-4000-8000-000000000000`,
    platformId: 'demo-platform',
    tenantId: 'demo-tenant',
    contentId: `content-${seq}`,
    eventName: 'Town hall',
    startedAt: '2025-03-10T08:00:00Z',
    updatedAt: '2025-03-10T09:00:00Z',
    hasEnded: false,
    viewersCount: 10,
    reliabilityScore: 98.5,
    cdnTraffic: 1000,
    ecdnTraffic: 2000,
    ...overrides
  }
}

describe('ReportingClient against quirky but valid answers', () => {
  it.each([
    ['an empty string', ''],
    ['null', null]
  ])('ends paging when nextCursor is %s', async (_label, last) => {
    const q = await quirkyServer((hit) => {
      const cursor = hit.url.searchParams.get('cursor')
      if (!cursor) return { json: { data: [session()], pagination: { nextCursor: 'page-2' } } }
      return { json: { data: [session()], pagination: { nextCursor: last } } }
    })
    const list = await q.client.listSessions()
    expect(list.pages).toBe(2)
    expect(list.sessions.length).toBe(2)
    expect(q.dataRequests).toBe(2)
  })

  it('ends paging when pagination itself is null or data is missing', async () => {
    const q = await quirkyServer((hit) => {
      const cursor = hit.url.searchParams.get('cursor')
      if (!cursor) return { json: { data: [session()], pagination: { nextCursor: 'p2' } } }
      if (cursor === 'p2') return { json: { pagination: { nextCursor: 'p3' } } } // a page with no data
      return { json: { data: [session()], pagination: null } }
    })
    const list = await q.client.listSessions()
    expect(list.pages).toBe(3)
    expect(list.sessions.length).toBe(2)
  })

  it('sends the cursor back as given and the platform and tenant headers on every page', async () => {
    const cursor = 'a+b/c=='
    const q = await quirkyServer((hit) =>
      hit.url.searchParams.get('cursor') === cursor
        ? { json: { data: [] } }
        : { json: { data: [session()], pagination: { nextCursor: cursor } } }
    )
    await q.client.listSessions()
    const data = q.hits.filter((h) => h.path === '/v1/events/sessions')
    expect(data.length).toBe(2)
    expect(data[1]?.url.searchParams.get('cursor')).toBe(cursor)
    for (const h of data) {
      expect(h.headers.authorization).toBe('Bearer token-1')
      expect(h.headers['platform-id']).toBe('demo-platform')
      expect(h.headers['tenant-id']).toBe('demo-tenant')
    }
  })

  it('ends the listing on a repeated cursor, keeping the pages read, instead of looping', async () => {
    const q = await quirkyServer(() => ({ json: { data: [session()], pagination: { nextCursor: 'same-again' } } }))
    const list = await q.client.listSessions()
    expect(list.ended).toBe('repeated-cursor')
    expect(list.pages).toBe(2)
    expect(list.sessions).toHaveLength(2) // each page is its own unit: both kept
    expect(q.dataRequests).toBe(2)
  })

  it('ends the listing when cursors cycle between two values', async () => {
    const q = await quirkyServer((hit) => ({
      json: { data: [session()], pagination: { nextCursor: hit.url.searchParams.get('cursor') === 'a' ? 'b' : 'a' } }
    }))
    const list = await q.client.listSessions()
    expect(list.ended).toBe('repeated-cursor')
    expect(list.sessions).toHaveLength(3)
    expect(q.dataRequests).toBe(3)
  })

  it('takes a numeric nextCursor as its decimal text', async () => {
    const q = await quirkyServer((hit) => {
      const cursor = hit.url.searchParams.get('cursor')
      return { json: { data: [session()], ...(cursor === null ? { pagination: { nextCursor: 42 } } : {}) } }
    })
    const list = await q.client.listSessions()
    expect(list.sessions).toHaveLength(2)
    expect(q.hits.at(-1)?.url.searchParams.get('cursor')).toBe('42')
  })

  it('skips a record missing a required field, counts it, and keeps the rest', async () => {
    const broken = session()
    delete broken.tenantId
    const badDate = session({ startedAt: 'yesterday-ish' })
    const q = await quirkyServer(() => ({ json: { data: [session(), broken, session(), badDate, 'not even an object'] } }))
    const list = await q.client.listSessions()
    expect(list.sessions.length).toBe(2)
    expect(list.skipped.length).toBe(3)
    expect(list.skipped[0]?.reason).toContain('tenantId')
    expect(list.skipped[1]?.reason).toContain('startedAt')
    for (const s of list.skipped) expect(s.endpoint).toContain('/v1/events/sessions')
  })

  it('accepts numeric strings and string booleans where numbers and booleans belong', async () => {
    const q = await quirkyServer(() => ({
      json: {
        data: [
          session({
            viewersCount: '42',
            reliabilityScore: '97.25',
            cdnTraffic: '9007199254740991',
            ecdnTraffic: ' 12 ',
            hasEnded: 'false'
          })
        ]
      }
    }))
    const [s] = (await q.client.listSessions()).sessions
    expect(s?.viewersCount).toBe(42)
    expect(s?.reliabilityScore).toBe(97.25)
    expect(s?.cdnTraffic).toBe(9007199254740991)
    expect(s?.ecdnTraffic).toBe(12)
    expect(s?.hasEnded).toBe(false)
  })

  it('refuses a non-numeric string in a number field (skipped, not NaN)', async () => {
    const q = await quirkyServer(() => ({ json: { data: [session({ viewersCount: 'lots' }), session()] } }))
    const list = await q.client.listSessions()
    expect(list.sessions.length).toBe(1)
    expect(list.skipped[0]?.reason).toContain('viewersCount')
  })

  it('keeps unknown extra fields on the record', async () => {
    const q = await quirkyServer(() => ({
      json: { data: [session({ region: 'emea', aggregates: { peak: 12 } })] }
    }))
    const [s] = (await q.client.listSessions()).sessions
    expect(s).toMatchObject({ region: 'emea', aggregates: { peak: 12 } })
  })

  it('turns an HTML 502 into an ApiError with the status and no HTML', async () => {
    const q = await quirkyServer(() => ({
      status: 502,
      contentType: 'text/html',
      text: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream gone</p></body></html>'
    }))
    const error = await rejection(q.client.listSessions())
    expect(error.kind).toBe('server')
    expect(error.status).toBe(502)
    expect(error.message).toContain('502')
    expect(error.message).toContain('Bad Gateway')
    expect(error.message).not.toMatch(/[<>]/)
    expect(error.message.length).toBeLessThan(300)
  })

  it('shows the message of a JSON error body', async () => {
    const q = await quirkyServer(() => ({ status: 503, json: { error: 'busy', message: 'upstream busy, try later' } }))
    const error = await rejection(q.client.listSessions())
    expect(error.status).toBe(503)
    expect(error.message).toContain('upstream busy')
  })

  it('gives kind response-format for a 200 whose body is not JSON', async () => {
    const q = await quirkyServer(() => ({ status: 200, contentType: 'text/plain', text: 'OK, sure' }))
    const error = await rejection(q.client.listSessions())
    expect(error.kind).toBe('response-format')
  })

  it('gives kind response-format for a 200 JSON body that is not a session list', async () => {
    const q = await quirkyServer(() => ({ json: { data: 'nope' } }))
    expect((await rejection(q.client.listSessions())).kind).toBe('response-format')
  })

  it('renews the token exactly once and retries exactly once after a 401 on a data request', async () => {
    const q = await quirkyServer((hit, i) =>
      i === 0 ? { status: 401, json: { error: 'invalid_token' } } : { json: { data: [session()] } }
    )
    const list = await q.client.listSessions()
    expect(list.sessions.length).toBe(1)
    expect(q.tokens).toBe(2)
    expect(q.dataRequests).toBe(2)
    const auth = q.hits.filter((h) => h.path.startsWith('/v1/')).map((h) => h.headers.authorization)
    expect(auth).toEqual(['Bearer token-1', 'Bearer token-2'])
  })

  it('gives up with kind auth when the retry is refused too', async () => {
    const q = await quirkyServer(() => ({ status: 401, json: { error: 'invalid_token' } }))
    const error = await rejection(q.client.getSession('abc'))
    expect(error.kind).toBe('authentication')
    expect(error.status).toBe(401)
    expect(q.tokens).toBe(2)
    expect(q.dataRequests).toBe(2)
  })

  it('escapes the session id in the path', async () => {
    const q = await quirkyServer(() => ({ json: session() }))
    await q.client.getSession('../../admin?x=1')
    const data = q.hits.filter((h) => h.path !== '/v2/auth/token')
    expect(data[0]?.path).toBe('/v1/events/sessions/..%2F..%2Fadmin%3Fx%3D1')
  })
})
