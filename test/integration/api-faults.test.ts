// One test (or a few) per simulator fault mode, proving what ReportingClient does about it —
// over real loopback HTTP, with a fake clock and a sleep that only records its delays.
import { describe, expect, it } from 'vitest'
import type { ReportingClientOptions } from '../../src/main/core/api/client'
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import { ApiError } from '../../src/main/core/api/errors'
import { DRIFT_SESSION_MISSING, DRIFT_SESSION_STRINGS, DRIFT_VIEWER_MISSING } from '../../src/main/core/simulator/drift'
import type { RunningSimulator, SimulatorOptions } from '../../src/main/core/simulator/server'
import { simulatorClient } from '../support/simulator-connection'

/** The shared simulator client (test/support/simulator-connection.ts), with one page for the whole list. */
const setup = (simOptions: SimulatorOptions = {}, clientOptions: ReportingClientOptions = {}, target: Partial<ConnectionTarget> = {}) =>
  simulatorClient({ sessionsPageSize: 50, ...simOptions }, clientOptions, target)

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected the call to fail')
}

const anySessionId = (sim: RunningSimulator): string => sim.world.sessions[0]!.eventSessionId

describe('fault: short token lifetimes', () => {
  it('renews a short-lived token ahead of its expiry, so the service never says 401', async () => {
    const { sim, client, clock } = await setup()
    sim.faults.setTokenLifetime(60) // margin: half the lifetime, 30 s
    await client.listSessions()
    expect(sim.stats.tokensIssued).toBe(1)
    clock.advance(25_000)
    await client.listSessions()
    expect(sim.stats.tokensIssued).toBe(1) // still well inside its life
    clock.advance(10_000) // 35 s: inside the margin, 25 s before the service would refuse it
    await client.listSessions()
    expect(sim.stats.tokensIssued).toBe(2)
    clock.advance(50_000) // the second token is past its margin too
    await client.getSession(anySessionId(sim))
    expect(sim.stats.tokensIssued).toBe(3)
    expect(sim.stats.log.filter((r) => r.status === 401)).toEqual([])
  })
})

describe('fault: unusable expires_in', () => {
  it.each([[0], [-5], [null], ['soon'], [undefined], [10 ** 12]])(
    'uses a token whose expires_in is %s for the assumed 3 hours, and renews it on a 401',
    async (expiresIn) => {
      const { sim, client } = await setup()
      sim.faults.answerExpiresIn(expiresIn)
      const list = await client.listSessions()
      expect(list.sessions.length).toBeGreaterThan(0)
      expect(sim.stats.count('token')).toBe(1)
      await client.getSession(anySessionId(sim)) // still the same token: its assumed life is 3 hours
      expect(sim.stats.count('token')).toBe(1)
      sim.faults.revokeTokens() // it dies sooner than assumed
      await client.getSession(anySessionId(sim))
      expect(sim.stats.count('token')).toBe(2)
    }
  )
})

describe('fault: revoked tokens', () => {
  it('renews exactly once and retries exactly once, then succeeds', async () => {
    const { sim, client, sleeps } = await setup()
    await client.listSessions()
    sim.stats.reset()
    sim.faults.revokeTokens()
    const session = await client.getSession(anySessionId(sim))
    expect(session.eventSessionId).toBe(anySessionId(sim))
    expect(sim.stats.count('token')).toBe(1)
    expect(sim.stats.count('session')).toBe(2)
    expect(sim.stats.log.map((r) => r.status)).toEqual([401, 200, 200])
    expect(sleeps).toEqual([]) // a renewal is not a backoff
  })

  it('shares one renewal between concurrent requests that all got 401', async () => {
    const { sim, client } = await setup()
    await client.listSessions()
    sim.faults.revokeTokens()
    sim.stats.reset()
    const ids = sim.world.sessions.slice(0, 5).map((s) => s.eventSessionId)
    const got = await Promise.all(ids.map((id) => client.getSession(id)))
    expect(got.map((s) => s.eventSessionId)).toEqual(ids)
    expect(sim.stats.count('token')).toBe(1)
  })
})

describe('fault: rate limiting', () => {
  it('waits the Retry-After seconds on 429, then succeeds', async () => {
    const { sim, client, sleeps, diagnostics } = await setup()
    sim.faults.rateLimit(1, { retryAfterSeconds: 3 })
    const list = await client.listSessions()
    expect(list.sessions.length).toBe(10)
    expect(sleeps).toEqual([3000])
    expect(sim.stats.count('sessions')).toBe(2)
    expect(diagnostics).toEqual([
      {
        kind: 'rate-limited',
        endpoint: 'GET /v1/events/sessions',
        message: expect.stringMatching(/attempt 1 of 4 failed \(HTTP 429.*\); retrying in 3000 ms as Retry-After asked/)
      }
    ])
  })

  it('waits until the Retry-After HTTP date, on the clock it was given', async () => {
    const { sim, client, sleeps } = await setup()
    sim.faults.rateLimit(2, { retryAfterSeconds: 4, asHttpDate: true })
    await client.getSession(anySessionId(sim))
    expect(sleeps).toEqual([4000, 4000])
    expect(sim.stats.count('session')).toBe(3)
  })

  it('honours Retry-After on 503 as well', async () => {
    const { sim, client, sleeps } = await setup()
    sim.faults.rateLimit(1, { status: 503, retryAfterSeconds: 2 })
    await client.listViewers(anySessionId(sim))
    expect(sleeps).toEqual([2000])
  })

  it('gives up with kind rate-limited when the limit outlasts the attempts', async () => {
    const { sim, client, sleeps } = await setup()
    sim.faults.rateLimit(Infinity, { retryAfterSeconds: 1 })
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('rate-limited')
    expect(error.status).toBe(429)
    expect(sleeps).toEqual([1000, 1000, 1000])
    expect(sim.stats.count('sessions')).toBe(4)
  })
})

describe('fault: transient and persistent 5xx', () => {
  it('retries 500, 502 and 503 with exponential backoff and jitter, then succeeds', async () => {
    const { sim, client, sleeps, diagnostics } = await setup()
    sim.faults.serverErrors(3) // 500, 502, 503 (no Retry-After)
    const list = await client.listSessions()
    expect(list.sessions.length).toBe(10)
    expect(sleeps).toEqual([250, 500, 1000]) // random 0.5 × 500 × 2^(n-1)
    expect(sim.stats.log.filter((r) => r.endpoint === 'GET /v1/events/sessions').map((r) => r.status)).toEqual([
      500, 502, 503, 200
    ])
    expect(diagnostics.map((d) => d.kind)).toEqual(['server', 'server', 'server'])
  })

  it('gives up after maxAttempts with kind server and the last status', async () => {
    const { sim, client, sleeps } = await setup()
    sim.faults.serverErrors(Infinity, [500])
    const error = await rejection(client.getSession(anySessionId(sim)))
    expect(error.kind).toBe('server')
    expect(error.status).toBe(500)
    expect(sim.stats.count('session')).toBe(4)
    expect(sleeps.length).toBe(3)
  })

  it('respects a smaller maxAttempts', async () => {
    const { sim, client } = await setup({}, { retry: { maxAttempts: 2 } })
    sim.faults.serverErrors(Infinity)
    expect((await rejection(client.listViewers(anySessionId(sim)))).kind).toBe('server')
    expect(sim.stats.count('viewers')).toBe(2)
  })

  it('does not retry 404 or 403', async () => {
    const { sim, client, sleeps } = await setup()
    const notFound = await rejection(client.getSession('00000000-0000-4000-8000-000000000000'))
    expect(notFound.kind).toBe('not-found')
    expect(sim.stats.count('session')).toBe(1)

    const other = await setup({}, {}, { tenantId: 'someone-else' })
    const forbidden = await rejection(other.client.listSessions())
    expect(forbidden.kind).toBe('permission')
    expect(forbidden.status).toBe(403)
    expect(other.sim.stats.count('sessions')).toBe(1)
    expect([...sleeps, ...other.sleeps]).toEqual([])
  })
})

describe('fault: HTML error pages', () => {
  it('shows the status and the words of the page, no tags', async () => {
    const { sim, client } = await setup({}, { retry: { maxAttempts: 1 } })
    sim.faults.htmlErrors(1, 502)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('server')
    expect(error.status).toBe(502)
    expect(error.message).toContain('HTTP 502')
    expect(error.message).toContain('Bad Gateway')
    expect(error.message).not.toMatch(/[<>]|font:/)
  })

  it('retries an HTML 503 like any 503, and an HTML 404 not at all', async () => {
    const { sim, client, sleeps } = await setup()
    sim.faults.htmlErrors(1, 503)
    expect((await client.listSessions()).sessions.length).toBe(10)
    expect(sleeps.length).toBe(1)
    sim.faults.htmlErrors(1, 404)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('not-found')
    expect(error.message).toMatch(/HTTP 404: 404 Not Found Not Found/)
  })
})

describe('fault: truncated bodies and wrong content types', () => {
  it('reports a body cut in half as response-format, without retrying it', async () => {
    const { sim, client } = await setup()
    sim.faults.truncateBodies(1)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('response-format')
    expect(error.status).toBe(200)
    expect(sim.stats.count('sessions')).toBe(1)
    // The next answer is whole again.
    expect((await client.listSessions()).sessions.length).toBe(10)
  })

  it.each(['text/plain', 'text/html; charset=utf-8'])('reports a 200 with %s as response-format, naming the type', async (type) => {
    const { sim, client } = await setup()
    sim.faults.wrongContentType(1, type)
    const error = await rejection(client.getSession(anySessionId(sim)))
    expect(error.kind).toBe('response-format')
    expect(error.message).toContain(type.split(';')[0])
    expect(sim.stats.count('session')).toBe(1)
  })
})

describe('fault: slow responses', () => {
  it('times a slow answer out as network "timed out", and retries it', async () => {
    const { sim, client, sleeps } = await setup({}, { timeoutMs: 200 })
    sim.faults.slowResponses(1, 1000)
    const started = Date.now()
    const list = await client.listSessions()
    expect(list.sessions.length).toBe(10)
    expect(sleeps.length).toBe(1)
    expect(sim.stats.count('sessions')).toBe(2)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('fails with kind network, timed out, when every attempt is slow', async () => {
    const { sim, client, diagnostics } = await setup({}, { timeoutMs: 200, retry: { maxAttempts: 2 } })
    sim.faults.slowResponses(Infinity, 1000)
    const error = await rejection(client.listSessions())
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/timed out/)
    expect(sim.stats.count('sessions')).toBe(2)
    expect(diagnostics[0]).toMatchObject({ kind: 'network', message: expect.stringMatching(/timed out/) })
  })
})

describe('fault: repeating cursors', () => {
  it('ends the session listing at the repeated cursor with a diagnostic, keeping the pages read', async () => {
    const { sim, client, diagnostics } = await setup({ sessionsPageSize: 4 })
    sim.faults.repeatCursors()
    const list = await client.listSessions()
    expect(list.ended).toBe('repeated-cursor')
    expect(list.pages).toBe(2)
    expect(list.sessions.length).toBe(8) // the first page, and the second (asked again) as served
    expect(sim.stats.count('sessions')).toBe(2)
    expect(diagnostics.map((d) => d.message)).toContainEqual(expect.stringMatching(/repeated a page cursor after 2 pages; the listing ends there/))
  })

  it('ends the viewer listing the same way, also when there is only one page', async () => {
    const { sim, client } = await setup({ viewersPageSize: 500 })
    sim.faults.repeatCursors()
    const id = anySessionId(sim)
    const list = await client.listViewers(id)
    expect(sim.stats.count('viewers')).toBe(2)
    expect(list.pages).toBe(2)
    expect(list.viewers.length).toBeGreaterThan(0)
  })

  it('takes numeric cursors as text, page after page', async () => {
    const { sim, client } = await setup({ sessionsPageSize: 4, viewersPageSize: 100 })
    sim.faults.numberCursors()
    const list = await client.listSessions()
    expect(list.pages).toBe(3)
    expect(list.sessions.length).toBe(10)
    const id = anySessionId(sim)
    const viewers = await client.listViewers(id)
    expect(viewers.viewers.length).toBe(sim.world.find(id)?.viewers.length)
  })
})

describe('fault: schema drift', () => {
  it('skips and counts session records missing a required field, keeps the rest with numbers and extra fields', async () => {
    const { sim, client, diagnostics } = await setup()
    sim.faults.driftSchema()
    const list = await client.listSessions()
    const indexes = [...Array(10).keys()]
    const missing = indexes.filter(DRIFT_SESSION_MISSING).length
    expect(missing).toBe(3)
    expect(list.skipped.length).toBe(missing)
    expect(list.sessions.length).toBe(10 - missing)
    for (const s of list.skipped) {
      expect(s.endpoint).toBe('GET /v1/events/sessions')
      expect(s.reason).toBe('contentId is missing')
    }
    for (const s of list.sessions) {
      for (const n of [s.viewersCount, s.reliabilityScore, s.cdnTraffic, s.ecdnTraffic]) expect(typeof n).toBe('number')
      expect(s).toMatchObject({ x_region: 'emea', x_aggregates: { peakViewers: 12 } })
    }
    expect(indexes.some(DRIFT_SESSION_STRINGS)).toBe(true) // numeric strings were sent
    const skipNotes = diagnostics.filter((d) => d.message.startsWith('skipped'))
    expect(skipNotes.length).toBe(missing)
    expect(skipNotes[0]).toMatchObject({ kind: 'response-format', endpoint: 'GET /v1/events/sessions' })
    expect(skipNotes[0]?.message).toMatch(/^skipped session [0-9a-f-]+: contentId is missing$/)
  })

  it('reads a single drifted session: numeric strings become numbers, unknown fields stay', async () => {
    const { sim, client } = await setup()
    sim.faults.driftSchema()
    const s = await client.getSession(anySessionId(sim))
    expect(typeof s.viewersCount).toBe('number')
    expect(typeof s.cdnTraffic).toBe('number')
    expect(s.x_region).toBe('emea')
  })

  it('skips viewers without a viewerId, keeps the others with their extra fields', async () => {
    const { sim, client } = await setup({ viewersPerSession: 60, viewersPageSize: 7 })
    const id = sim.world.sessions.find((s) => !s.hasEnded)!.eventSessionId
    const total = sim.world.find(id)!.viewers.length
    expect(total).toBeGreaterThan(7)
    sim.faults.driftSchema()
    const list = await client.listViewers(id)
    let missing = 0
    for (let start = 0; start < total; start += 7) {
      const size = Math.min(7, total - start)
      missing += [...Array(size).keys()].filter(DRIFT_VIEWER_MISSING).length
    }
    expect(list.skipped.length).toBe(missing)
    expect(list.viewers.length).toBe(total - missing)
    expect(list.skipped[0]?.reason).toBe('viewerId is missing')
    for (const v of list.viewers) {
      expect(typeof v.cdnTraffic).toBe('number')
      expect(v.x_bufferHealth).toBe(0.93)
      expect(v.networkConnections?.[0]).toMatchObject({ x_asn: 64500 })
    }
  })
})
