// The demo simulator (src/main/core/simulator/server.ts) over real loopback HTTP, with a clock
// the test moves by hand.
import { afterEach, describe, expect, it } from 'vitest'
import {
  DEMO_CREDENTIALS,
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions
} from '../../src/main/core/simulator/server'
import { fakeClock, T0 } from '../support/fake-clock'


const running: RunningSimulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()))
})

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ viewersPerSession: 40, ...options })
  running.push(sim)
  return sim
}

async function tokenRequest(sim: RunningSimulator, body: string, contentType = 'application/json') {
  const res = await fetch(`${sim.authUrl}/v2/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function token(sim: RunningSimulator): Promise<string> {
  const { status, body } = await tokenRequest(
    sim,
    JSON.stringify({
      grant_type: 'client_credentials',
      client_id: sim.credentials.clientId,
      client_secret: sim.credentials.clientSecret
    })
  )
  expect(status).toBe(200)
  return body.access_token as string
}

function dataHeaders(sim: RunningSimulator, accessToken: string): Record<string, string> {
  return {
    Authorization: `Bearer ${accessToken}`,
    'platform-id': sim.credentials.platformId,
    'tenant-id': sim.credentials.tenantId
  }
}

async function get(sim: RunningSimulator, path: string, headers: Record<string, string>) {
  const res = await fetch(`${sim.baseUrl}${path}`, { headers })
  const text = await res.text()
  return { status: res.status, contentType: res.headers.get('content-type'), body: JSON.parse(text) as any }
}

type Session = Record<string, any>

async function allSessions(sim: RunningSimulator, accessToken: string): Promise<{ sessions: Session[]; pages: Session[] }> {
  const sessions: Session[] = []
  const pages: Session[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 100; guard++) {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
    const { status, body } = await get(sim, `/v1/events/sessions${query}`, dataHeaders(sim, accessToken))
    expect(status).toBe(200)
    pages.push(body)
    sessions.push(...body.data)
    cursor = body.pagination?.nextCursor
    if (!cursor) return { sessions, pages }
  }
  throw new Error('pagination did not end')
}

describe('token endpoint', () => {
  it('issues a bearer token valid for 10800 seconds for the right credentials', async () => {
    const sim = await start({ clock: fakeClock().now })
    const { status, body } = await tokenRequest(
      sim,
      JSON.stringify({
        grant_type: 'client_credentials',
        client_id: DEMO_CREDENTIALS.clientId,
        client_secret: DEMO_CREDENTIALS.clientSecret
      })
    )
    expect(status).toBe(200)
    expect(body.token_type).toBe('bearer')
    expect(body.expires_in).toBe(10800)
    expect(typeof body.access_token).toBe('string')
    expect((body.access_token as string).length).toBeGreaterThan(10)
  })

  it('issues a different token each time', async () => {
    const sim = await start()
    expect(await token(sim)).not.toBe(await token(sim))
  })

  it('answers 401 for a wrong secret or an unknown client', async () => {
    const sim = await start()
    for (const [id, secret] of [
      [sim.credentials.clientId, 'wrong'],
      ['someone-else', sim.credentials.clientSecret]
    ]) {
      const { status, body } = await tokenRequest(
        sim,
        JSON.stringify({ grant_type: 'client_credentials', client_id: id, client_secret: secret })
      )
      expect(status).toBe(401)
      expect(body.access_token).toBeUndefined()
    }
  })

  it('answers 400 for a body that is not JSON', async () => {
    const sim = await start()
    const { status, body } = await tokenRequest(sim, 'grant_type=client_credentials&client_id=demo-client', 'text/plain')
    expect(status).toBe(400)
    expect(body.access_token).toBeUndefined()
  })

  it('answers 400 for a grant type other than client_credentials', async () => {
    const sim = await start()
    for (const grant of ['password', undefined]) {
      const { status } = await tokenRequest(
        sim,
        JSON.stringify({ grant_type: grant, client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret })
      )
      expect(status).toBe(400)
    }
  })

  it('answers 405 to a GET of the token endpoint', async () => {
    const sim = await start()
    const res = await fetch(`${sim.authUrl}/v2/auth/token`)
    expect(res.status).toBe(405)
  })

  it('honours tokenLifetimeSeconds in expires_in', async () => {
    const sim = await start({ tokenLifetimeSeconds: 120 })
    const { body } = await tokenRequest(
      sim,
      JSON.stringify({
        grant_type: 'client_credentials',
        client_id: sim.credentials.clientId,
        client_secret: sim.credentials.clientSecret
      })
    )
    expect(body.expires_in).toBe(120)
  })
})

describe('data endpoint access', () => {
  it('answers 401 without an Authorization header', async () => {
    const sim = await start()
    const res = await get(sim, '/v1/events/sessions', {
      'platform-id': sim.credentials.platformId,
      'tenant-id': sim.credentials.tenantId
    })
    expect(res.status).toBe(401)
    expect(res.body.data).toBeUndefined()
  })

  it('answers 401 for a bogus token', async () => {
    const sim = await start()
    expect((await get(sim, '/v1/events/sessions', dataHeaders(sim, 'not-a-real-token'))).status).toBe(401)
  })

  it('answers 401 once the token has expired on the injected clock, and 200 just before', async () => {
    const clock = fakeClock()
    const sim = await start({ clock: clock.now, tokenLifetimeSeconds: 600, churnSessions: false })
    const t = await token(sim)
    clock.advance(599_000)
    expect((await get(sim, '/v1/events/sessions', dataHeaders(sim, t))).status).toBe(200)
    clock.advance(2_000)
    expect((await get(sim, '/v1/events/sessions', dataHeaders(sim, t))).status).toBe(401)
    // A fresh token works again.
    expect((await get(sim, '/v1/events/sessions', dataHeaders(sim, await token(sim)))).status).toBe(200)
  })

  it('answers 400 to a valid token without platform-id or tenant-id', async () => {
    const sim = await start()
    const t = await token(sim)
    const headers = dataHeaders(sim, t)
    for (const missing of ['platform-id', 'tenant-id']) {
      const partial = { ...headers }
      delete partial[missing]
      const res = await get(sim, '/v1/events/sessions', partial)
      expect(res.status, missing).toBe(400)
    }
  })

  it('answers 403 for another tenant or platform', async () => {
    const sim = await start()
    const t = await token(sim)
    expect((await get(sim, '/v1/events/sessions', { ...dataHeaders(sim, t), 'tenant-id': 'other-tenant' })).status).toBe(
      403
    )
    expect(
      (await get(sim, '/v1/events/sessions', { ...dataHeaders(sim, t), 'platform-id': 'other-platform' })).status
    ).toBe(403)
  })

  it('answers 404 for an unknown session and its viewers', async () => {
    const sim = await start()
    const t = await token(sim)
    const id = '00000000-0000-4000-8000-000000000000'
    expect((await get(sim, `/v1/events/sessions/${id}`, dataHeaders(sim, t))).status).toBe(404)
    expect((await get(sim, `/v1/events/sessions/${id}/viewers`, dataHeaders(sim, t))).status).toBe(404)
  })

  it('answers 400 for a cursor it did not issue', async () => {
    const sim = await start()
    const t = await token(sim)
    expect((await get(sim, '/v1/events/sessions?cursor=garbage!!', dataHeaders(sim, t))).status).toBe(400)
  })

  it('answers JSON with an application/json content type', async () => {
    const sim = await start()
    const t = await token(sim)
    const res = await get(sim, '/v1/events/sessions', dataHeaders(sim, t))
    expect(res.contentType).toMatch(/^application\/json/)
  })
})

describe('pagination', () => {
  it('reaches every session exactly once by following nextCursor; the last page has none', async () => {
    const sim = await start({
      clock: fakeClock().now,
      liveSessions: 4,
      endedSessions: 10,
      sessionsPageSize: 3,
      churnSessions: false
    })
    const t = await token(sim)
    const { sessions, pages } = await allSessions(sim, t)

    expect(pages.length).toBe(5) // 3 + 3 + 3 + 3 + 2
    for (const page of pages.slice(0, -1)) {
      expect(page.data.length).toBe(3)
      expect(typeof page.pagination.nextCursor).toBe('string')
    }
    expect(pages.at(-1)?.pagination?.nextCursor).toBeUndefined()

    const ids = sessions.map((s) => s.eventSessionId)
    expect(ids.length).toBe(14)
    expect(new Set(ids).size).toBe(14)
    expect(new Set(ids)).toEqual(new Set(sim.world.sessions.map((s) => s.eventSessionId)))
    expect(sessions.filter((s) => !s.hasEnded).length).toBe(4)
  })

  it('reaches every viewer of a session exactly once by following nextCursor', async () => {
    const sim = await start({
      clock: fakeClock().now,
      liveSessions: 2,
      endedSessions: 2,
      viewersPerSession: 60,
      viewersPageSize: 7,
      churnSessions: false
    })
    const t = await token(sim)
    const { sessions } = await allSessions(sim, t)
    const live = sessions.find((s) => !s.hasEnded)
    expect(live).toBeDefined()
    const id = live?.eventSessionId as string
    const expected = sim.world.find(id)?.viewers.length ?? -1
    expect(expected).toBeGreaterThan(7)

    const viewerIds: string[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
      const { status, body } = await get(sim, `/v1/events/sessions/${id}/viewers${query}`, dataHeaders(sim, t))
      expect(status).toBe(200)
      expect(body.eventSessionId).toBe(id)
      expect(body.data.length).toBeLessThanOrEqual(7)
      viewerIds.push(...body.data.map((v: { viewerId: string }) => v.viewerId))
      cursor = body.pagination?.nextCursor
      pages++
    } while (cursor && pages < 100)

    expect(cursor).toBeUndefined()
    expect(viewerIds.length).toBe(expected)
    expect(new Set(viewerIds).size).toBe(expected)
    expect(pages).toBe(Math.ceil(expected / 7))
  })
})

describe('dynamics on a fake clock', () => {
  it('changes live viewer counts and grows traffic totals as time advances', async () => {
    const clock = fakeClock()
    const sim = await start({ clock: clock.now, liveSessions: 4, endedSessions: 2, viewersPerSession: 300, churnSessions: false })
    const t = await token(sim)
    const first = (await allSessions(sim, t)).sessions
    const liveIds = first.filter((s) => !s.hasEnded).map((s) => s.eventSessionId as string)
    expect(liveIds.length).toBe(4)

    const history = new Map<string, { viewers: number[]; traffic: number[]; updatedAt: string[] }>()
    for (const id of liveIds) history.set(id, { viewers: [], traffic: [], updatedAt: [] })
    for (let step = 0; step < 6; step++) {
      for (const id of liveIds) {
        const { status, body } = await get(sim, `/v1/events/sessions/${id}`, dataHeaders(sim, t))
        expect(status).toBe(200)
        const h = history.get(id)!
        h.viewers.push(body.viewersCount)
        h.traffic.push(body.cdnTraffic + body.ecdnTraffic)
        h.updatedAt.push(body.updatedAt)
      }
      clock.advance(60_000)
    }

    let someViewerCountChanged = false
    for (const [id, h] of history) {
      for (let i = 1; i < h.traffic.length; i++) {
        expect(h.traffic[i]!, id).toBeGreaterThanOrEqual(h.traffic[i - 1]!)
      }
      // A live session with viewers moves more bytes over five minutes.
      expect(h.traffic.at(-1)!, id).toBeGreaterThan(h.traffic[0]!)
      expect(Date.parse(h.updatedAt.at(-1)!)).toBeGreaterThan(Date.parse(h.updatedAt[0]!))
      if (new Set(h.viewers).size > 1) someViewerCountChanged = true
    }
    expect(someViewerCountChanged).toBe(true)
  })

  it('serves nothing new while the clock stands still', async () => {
    const sim = await start({ clock: fakeClock().now, churnSessions: true })
    const t = await token(sim)
    const a = await allSessions(sim, t)
    const b = await allSessions(sim, t)
    expect(b.sessions).toEqual(a.sessions)
  })

  it('gives identical responses for the same seed and the same clock steps', async () => {
    const clockA = fakeClock()
    const clockB = fakeClock()
    const options = { seed: 1234, liveSessions: 3, endedSessions: 3, viewersPerSession: 80, viewersPageSize: 25 }
    const a = await start({ ...options, clock: clockA.now })
    const b = await start({ ...options, clock: clockB.now })
    const ta = await token(a)
    const tb = await token(b)

    for (const step of [0, 30_000, 90_000, 600_000]) {
      clockA.advance(step)
      clockB.advance(step)
      const listA = (await allSessions(a, ta)).sessions
      const listB = (await allSessions(b, tb)).sessions
      expect(listA).toEqual(listB)
      const live = listA.find((s) => !s.hasEnded)
      if (live) {
        const path = `/v1/events/sessions/${live.eventSessionId}/viewers`
        expect((await get(a, path, dataHeaders(a, ta))).body).toEqual((await get(b, path, dataHeaders(b, tb))).body)
      }
    }
  })

  it('gives a different world for a different seed', async () => {
    const a = await start({ seed: 1, clock: fakeClock().now })
    const b = await start({ seed: 2, clock: fakeClock().now })
    const idsA = (await allSessions(a, await token(a))).sessions.map((s) => s.eventSessionId)
    const idsB = (await allSessions(b, await token(b))).sessions.map((s) => s.eventSessionId)
    expect(idsA).not.toEqual(idsB)
  })

  it('with churnSessions, ends live sessions and starts new ones over simulated hours', async () => {
    const clock = fakeClock()
    const sim = await start({
      clock: clock.now,
      seed: 7,
      liveSessions: 3,
      endedSessions: 2,
      viewersPerSession: 30,
      churnSessions: true,
      tokenLifetimeSeconds: 24 * 3600
    })
    const t = await token(sim)
    const before = (await allSessions(sim, t)).sessions
    const liveBefore = new Set(before.filter((s) => !s.hasEnded).map((s) => s.eventSessionId as string))
    const knownBefore = new Set(before.map((s) => s.eventSessionId as string))

    // Observe every ten simulated minutes for four hours: longer than any demo session lasts.
    for (let i = 0; i < 24; i++) {
      clock.advance(10 * 60_000)
      await allSessions(sim, t)
    }
    const after = (await allSessions(sim, t)).sessions
    const endedNow = after.filter((s) => liveBefore.has(s.eventSessionId) && s.hasEnded)
    expect(endedNow.length).toBeGreaterThan(0)
    const started = after.filter((s) => !knownBefore.has(s.eventSessionId))
    expect(started.length).toBeGreaterThan(0)
    for (const s of started) expect(Date.parse(s.startedAt)).toBeGreaterThan(T0)

    // The ended session is still served on its own, as ended.
    const one = await get(sim, `/v1/events/sessions/${endedNow[0]!.eventSessionId}`, dataHeaders(sim, t))
    expect(one.status).toBe(200)
    expect(one.body.hasEnded).toBe(true)
    // No session appears twice in the listing after churn.
    expect(new Set(after.map((s) => s.eventSessionId)).size).toBe(after.length)
  })
})

describe('record shapes', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
  const isDateTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /T/.test(v)

  function expectSessionShape(s: Session): void {
    expect(s.eventSessionId).toMatch(UUID)
    expect(typeof s.platformId).toBe('string')
    expect(typeof s.tenantId).toBe('string')
    expect(typeof s.contentId).toBe('string')
    expect(isDateTime(s.startedAt)).toBe(true)
    expect(isDateTime(s.updatedAt)).toBe(true)
    expect(typeof s.hasEnded).toBe('boolean')
    expect(Number.isInteger(s.viewersCount)).toBe(true)
    expect(s.viewersCount).toBeGreaterThanOrEqual(0)
    expect(s.viewersCount).toBeLessThanOrEqual(2 ** 31 - 1)
    expect(typeof s.reliabilityScore).toBe('number')
    expect(Number.isFinite(s.reliabilityScore)).toBe(true)
    expect(Number.isSafeInteger(s.cdnTraffic)).toBe(true)
    expect(Number.isSafeInteger(s.ecdnTraffic)).toBe(true)
    if ('eventName' in s) expect(typeof s.eventName).toBe('string')
  }

  it('gives every session list item and every session the required fields with their JSON types', async () => {
    const sim = await start({ clock: fakeClock().now, liveSessions: 3, endedSessions: 4 })
    const t = await token(sim)
    const { sessions } = await allSessions(sim, t)
    expect(sessions.length).toBe(7)
    for (const s of sessions) {
      expectSessionShape(s)
      expect(s.platformId).toBe(sim.credentials.platformId)
      expect(s.tenantId).toBe(sim.credentials.tenantId)
      const one = await get(sim, `/v1/events/sessions/${s.eventSessionId}`, dataHeaders(sim, t))
      expect(one.status).toBe(200)
      expectSessionShape(one.body)
      expect(one.body).toEqual(s)
    }
  })

  it('gives the viewer list its required envelope and viewers their documented fields', async () => {
    const sim = await start({ clock: fakeClock().now, liveSessions: 1, endedSessions: 1, viewersPerSession: 20 })
    const t = await token(sim)
    const { sessions } = await allSessions(sim, t)
    for (const s of sessions) {
      const { status, body } = await get(sim, `/v1/events/sessions/${s.eventSessionId}/viewers`, dataHeaders(sim, t))
      expect(status).toBe(200)
      expect(body.eventSessionId).toBe(s.eventSessionId)
      expect(isDateTime(body.startedAt)).toBe(true)
      expect(isDateTime(body.updatedAt)).toBe(true)
      expect(Array.isArray(body.data)).toBe(true)
      expect(body.data.length).toBeGreaterThan(0)
      for (const v of body.data) {
        for (const key of ['viewerId', 'deviceType', 'os', 'app']) expect(typeof v[key], key).toBe('string')
        for (const key of [
          'reliabilityScore',
          'rebufferingEvents',
          'rebufferingTime',
          'viewingTime',
          'cdnTraffic',
          'ecdnTraffic',
          'cdnResponses',
          'cdnErrors'
        ]) {
          expect(typeof v[key], key).toBe('number')
        }
        expect(isDateTime(v.startedAt)).toBe(true)
        if (s.hasEnded) expect(isDateTime(v.endedAt)).toBe(true)
        expect(Array.isArray(v.networkConnections)).toBe(true)
        for (const c of v.networkConnections) {
          expect(isDateTime(c.connectionStarted)).toBe(true)
          expect(typeof c.publicIp).toBe('string')
          expect(typeof c.privateIp).toBe('string')
          expect(typeof c.type).toBe('object')
          expect(Array.isArray(c.proxy)).toBe(true)
          expect(typeof c.siteCode).toBe('number')
        }
      }
    }
  })
})
