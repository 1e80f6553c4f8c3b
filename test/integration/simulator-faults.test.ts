// The simulator's fault modes and request stats (src/main/core/simulator/faults.ts, stats.ts),
// seen from plain fetch over loopback: what each mode puts on the wire.
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../src/main/core/simulator/server'
import { fakeClock, T0 } from '../support/fake-clock'

const running: RunningSimulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()))
})

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({
    clock: fakeClock().now,
    liveSessions: 3,
    endedSessions: 3,
    viewersPerSession: 30,
    churnSessions: false,
    ...options
  })
  running.push(sim)
  return sim
}

async function token(sim: RunningSimulator): Promise<{ token: string; expiresIn: number }> {
  const res = await fetch(`${sim.authUrl}/v2/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: sim.credentials.clientId,
      client_secret: sim.credentials.clientSecret
    })
  })
  const body = (await res.json()) as { access_token: string; expires_in: number }
  return { token: body.access_token, expiresIn: body.expires_in }
}

async function get(sim: RunningSimulator, path: string, accessToken: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${sim.baseUrl}${path}`, {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      'platform-id': sim.credentials.platformId,
      'tenant-id': sim.credentials.tenantId,
      ...extra
    }
  })
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    length: res.headers.get('content-length'),
    retryAfter: res.headers.get('retry-after'),
    text: await res.text()
  }
}

const json = (text: string): any => JSON.parse(text)

describe('stats', () => {
  it('counts requests per endpoint and keeps the last data request', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    const id = sim.world.sessions[0]!.eventSessionId
    await get(sim, '/v1/events/sessions?aggr=a&orderAsc=true', t, { Origin: 'https://o.example', Referer: 'https://o.example/x' })
    await get(sim, `/v1/events/sessions/${id}`, t)
    await get(sim, `/v1/events/sessions/${id}/viewers?cursor=abc`, t)
    await get(sim, '/v1/nowhere', t)
    expect(sim.stats.count('token')).toBe(1)
    expect(sim.stats.tokensIssued).toBe(1)
    expect(sim.stats.count('sessions')).toBe(1)
    expect(sim.stats.count('session')).toBe(1)
    expect(sim.stats.count('viewers')).toBe(1)
    expect(sim.stats.count('other')).toBe(1)
    expect(sim.stats.dataRequests).toBe(3)
    expect(sim.stats.requests['GET /v1/events/sessions']).toBe(1)
    const first = sim.stats.log.find((r) => r.path === '/v1/events/sessions')
    expect(first).toMatchObject({ query: 'aggr=a&orderAsc=true', status: 200 })
    expect(first?.headers.origin).toBe('https://o.example')
    expect(first?.headers.referer).toBe('https://o.example/x')
    expect(sim.stats.lastDataRequest).toMatchObject({ path: '/v1/nowhere', status: 404 })
    sim.stats.reset()
    expect(sim.stats.dataRequests).toBe(0)
    expect(sim.stats.log).toEqual([])
    expect(sim.stats.lastDataRequest).toBeUndefined()
  })
})

describe('token faults', () => {
  it('issues tokens with the lifetime set at run time', async () => {
    const clock = fakeClock()
    const sim = await start({ clock: clock.now })
    sim.faults.setTokenLifetime(30)
    const short = await token(sim)
    expect(short.expiresIn).toBe(30)
    clock.advance(29_000)
    expect((await get(sim, '/v1/events/sessions', short.token)).status).toBe(200)
    clock.advance(2_000)
    expect((await get(sim, '/v1/events/sessions', short.token)).status).toBe(401)
    sim.faults.reset()
    expect((await token(sim)).expiresIn).toBe(10_800)
  })

  it('revokes every token issued so far; new ones work', async () => {
    const sim = await start()
    const a = await token(sim)
    const b = await token(sim)
    sim.faults.revokeTokens()
    expect((await get(sim, '/v1/events/sessions', a.token)).status).toBe(401)
    expect((await get(sim, '/v1/events/sessions', b.token)).status).toBe(401)
    expect((await get(sim, '/v1/events/sessions', (await token(sim)).token)).status).toBe(200)
  })
})

describe('failure faults (the next N data requests)', () => {
  it('answers 429 with Retry-After in seconds, N times, then normally; token requests are untouched', async () => {
    const sim = await start()
    sim.faults.rateLimit(2, { retryAfterSeconds: 5 })
    const { token: t } = await token(sim)
    for (let i = 0; i < 2; i++) {
      const res = await get(sim, '/v1/events/sessions', t)
      expect(res.status).toBe(429)
      expect(res.retryAfter).toBe('5')
      expect(res.type).toMatch(/^application\/json/)
    }
    expect((await get(sim, '/v1/events/sessions', t)).status).toBe(200)
  })

  it('gives Retry-After as an HTTP date on its own clock, and 503 when asked', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.rateLimit(1, { retryAfterSeconds: 7, asHttpDate: true, status: 503 })
    const res = await get(sim, '/v1/events/sessions', t)
    expect(res.status).toBe(503)
    expect(res.retryAfter).toBe(new Date(T0 + 7000).toUTCString())
  })

  it('fails the next N requests with 500, 502, 503 in turn', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.serverErrors(4)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await get(sim, '/v1/events/sessions', t)).status)
    expect(statuses).toEqual([500, 502, 503, 500, 200])
  })

  it('serves an HTML error page with text/html', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.htmlErrors(1, 504)
    const res = await get(sim, '/v1/events/sessions', t)
    expect(res.status).toBe(504)
    expect(res.type).toMatch(/^text\/html/)
    expect(res.text).toMatch(/^<!DOCTYPE html>.*<title>504 Gateway Timeout<\/title>/)
  })

  it('holds slow answers back by the delay, and close() does not wait for them', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.slowResponses(1, 150)
    const started = Date.now()
    expect((await get(sim, '/v1/events/sessions', t)).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    const quick = Date.now()
    await get(sim, '/v1/events/sessions', t)
    expect(Date.now() - quick).toBeLessThan(140)

    sim.faults.slowResponses(1, 60_000)
    const pending = get(sim, '/v1/events/sessions', t).catch(() => 'gone')
    await expect.poll(() => sim.stats.dataRequests).toBe(3)
    const closing = Date.now()
    await sim.close()
    expect(Date.now() - closing).toBeLessThan(2000)
    expect(await pending).toBe('gone')
  })
})

describe('spoiled successes', () => {
  it('cuts a body in half, keeping status 200, JSON type and a matching length', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    const whole = await get(sim, '/v1/events/sessions', t)
    sim.faults.truncateBodies(1)
    const cut = await get(sim, '/v1/events/sessions', t)
    expect(cut.status).toBe(200)
    expect(cut.type).toMatch(/^application\/json/)
    expect(cut.text).toBe(whole.text.slice(0, Math.floor(whole.text.length / 2)))
    expect(Number(cut.length)).toBe(Buffer.byteLength(cut.text))
    expect(() => JSON.parse(cut.text)).toThrow()
    expect((await get(sim, '/v1/events/sessions', t)).text).toBe(whole.text)
  })

  it('labels a good body with the wrong content type', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.wrongContentType(2, 'text/plain')
    const res = await get(sim, '/v1/events/sessions', t)
    expect(res.status).toBe(200)
    expect(res.type).toBe('text/plain')
    expect(Array.isArray(json(res.text).data)).toBe(true)
    sim.faults.wrongContentType(1)
    expect((await get(sim, '/v1/events/sessions', t)).type).toMatch(/^text\/html/)
  })

  it('does not spoil error answers (the spoiling waits for a success)', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.truncateBodies(1)
    expect((await get(sim, '/v1/events/sessions/unknown', t)).status).toBe(404)
    const next = await get(sim, '/v1/events/sessions', t)
    expect(() => JSON.parse(next.text)).toThrow()
  })
})

describe('repeating cursors', () => {
  it('answers the same nextCursor forever, valid every time', async () => {
    const sim = await start({ sessionsPageSize: 2, viewersPageSize: 1000 })
    const { token: t } = await token(sim)
    sim.faults.repeatCursors()
    const first = json((await get(sim, '/v1/events/sessions', t)).text)
    const cursor = first.pagination.nextCursor as string
    for (let i = 0; i < 3; i++) {
      const page = await get(sim, `/v1/events/sessions?cursor=${encodeURIComponent(cursor)}`, t)
      expect(page.status).toBe(200)
      expect(json(page.text).pagination.nextCursor).toBe(cursor)
    }
    // A single page of viewers gets a cursor too, which leads back to the same page.
    const id = sim.world.sessions[0]!.eventSessionId
    const v1 = json((await get(sim, `/v1/events/sessions/${id}/viewers`, t)).text)
    const v2 = json((await get(sim, `/v1/events/sessions/${id}/viewers?cursor=${v1.pagination.nextCursor}`, t)).text)
    expect(v2.pagination.nextCursor).toBe(v1.pagination.nextCursor)
    expect(v2.data).toEqual(v1.data)
    sim.faults.reset()
    expect(json((await get(sim, `/v1/events/sessions/${id}/viewers`, t)).text).pagination).toBeUndefined()
  })
})

describe('viewer cursors that repeat', () => {
  it('leave the session list alone and repeat a viewer list\'s cursor from its second page on', async () => {
    const sim = await start({ sessionsPageSize: 2, viewersPageSize: 10 })
    const { token: t } = await token(sim)
    sim.faults.repeatViewerCursors()
    const first = json((await get(sim, '/v1/events/sessions', t)).text)
    const second = json((await get(sim, `/v1/events/sessions?cursor=${first.pagination.nextCursor}`, t)).text)
    expect(second.pagination.nextCursor).not.toBe(first.pagination.nextCursor)
    const id = sim.world.sessions.find((s) => s.viewers.length > 20)!.eventSessionId
    const v1 = json((await get(sim, `/v1/events/sessions/${id}/viewers`, t)).text)
    const v2 = json((await get(sim, `/v1/events/sessions/${id}/viewers?cursor=${v1.pagination.nextCursor}`, t)).text)
    expect(v2.data).not.toEqual(v1.data)
    expect(v2.pagination.nextCursor).toBe(v1.pagination.nextCursor)
  })
})

describe('overlapping session pages', () => {
  it('start each later page with the last session of the page before', async () => {
    const sim = await start({ sessionsPageSize: 2 })
    const { token: t } = await token(sim)
    sim.faults.overlapSessionPages()
    const listed: string[] = []
    let cursor: string | undefined
    do {
      const page = json((await get(sim, `/v1/events/sessions${cursor ? `?cursor=${cursor}` : ''}`, t)).text)
      listed.push(...page.data.map((s: { eventSessionId: string }) => s.eventSessionId))
      cursor = page.pagination?.nextCursor
    } while (cursor)
    const ids = sim.world.sessions.map((s) => s.eventSessionId)
    // 1 2 | 2 3 | 3 4 | 4 5 | 5 6: every session but the first and last twice.
    expect(listed).toEqual([ids[0], ...ids.slice(1, -1).flatMap((id) => [id, id]), ids.at(-1)])
  })
})

describe('last viewer pages answered together', () => {
  it('hold the last page of a list until that many requests for it wait; earlier pages are not held', async () => {
    const sim = await start({ viewersPageSize: 1000 })
    const { token: t } = await token(sim)
    sim.faults.answerLastViewerPagesTogether(2)
    const id = sim.world.sessions[0]!.eventSessionId
    let answered = 0
    const first = get(sim, `/v1/events/sessions/${id}/viewers`, t).then((r) => {
      answered++
      return r
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(answered).toBe(0)
    const second = await get(sim, `/v1/events/sessions/${id}/viewers`, t)
    expect(second.status).toBe(200)
    expect((await first).text).toBe(second.text)
  })
})

describe('schema drift', () => {
  it('drifts session records by position: missing contentId, numeric strings, unknown fields', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.driftSchema()
    const records = json((await get(sim, '/v1/events/sessions', t)).text).data as Record<string, unknown>[]
    expect(records.length).toBe(6)
    records.forEach((r, i) => {
      expect(r.x_region).toBe('emea')
      expect('contentId' in r).toBe(i % 3 !== 1)
      expect(typeof r.viewersCount).toBe(i % 3 === 2 ? 'string' : 'number')
    })
    const one = json((await get(sim, `/v1/events/sessions/${records[0]!.eventSessionId as string}`, t)).text)
    expect(typeof one.contentId).toBe('string')
    expect(typeof one.cdnTraffic).toBe('string')
  })

  it('drifts viewers: extra fields everywhere, no viewerId on some', async () => {
    const sim = await start()
    const { token: t } = await token(sim)
    sim.faults.driftSchema()
    const id = sim.world.sessions.find((s) => !s.hasEnded)!.eventSessionId
    const viewers = json((await get(sim, `/v1/events/sessions/${id}/viewers`, t)).text).data as Record<string, any>[]
    expect(viewers.length).toBeGreaterThan(4)
    viewers.forEach((v, i) => {
      expect(v.x_bufferHealth).toBe(0.93)
      expect(v.networkConnections[0].x_asn).toBe(64500)
      expect('viewerId' in v).toBe(i % 4 !== 3)
    })
  })
})
