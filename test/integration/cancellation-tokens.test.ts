// Token renewal under cancellation (issue 13), against a token endpoint on loopback that answers
// only when the test says so: a caller that stops waiting leaves the shared renewal to the
// others; when the last waiter stops, the token request itself is aborted (its socket closes).
// And a client stopped during a 300 s Retry-After sends nothing more.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import { RequestLimiter } from '../../src/main/core/api/limiter'
import { TokenManager } from '../../src/main/core/api/tokens'
import { ReportingClient } from '../../src/main/core/api/client'
import { CancelledError } from '../../src/main/core/net/abort'
import { startSimulator } from '../../src/main/core/simulator/server'
import { simulatorTarget } from '../support/simulator-connection'

const CREDENTIALS = { clientId: 'id', clientSecret: 'secret' }

interface HeldRequest {
  res: ServerResponse
  /** Resolves when the client closed the connection before an answer. */
  abandoned: Promise<void>
  answer(token: string): void
}

/** A token endpoint that holds every request until the test answers it. */
async function heldTokenEndpoint() {
  const held: HeldRequest[] = []
  const waiting: ((request: HeldRequest) => void)[] = []
  const server = createServer((req, res) => {
    req.resume()
    const abandoned = new Promise<void>((resolve) => res.on('close', () => !res.writableEnded && resolve()))
    const request: HeldRequest = {
      res,
      abandoned,
      answer: (token) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ token_type: 'bearer', access_token: token, expires_in: 3600 }))
      }
    }
    held.push(request)
    waiting.shift()?.(request)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  /** The `n`th request (1-based), once it has arrived. */
  const request = (n: number): Promise<HeldRequest> =>
    held[n - 1] ? Promise.resolve(held[n - 1] as HeldRequest) : new Promise((resolve) => waiting.push(resolve))
  return { url, held, request }
}

const settled = async (promise: Promise<unknown>): Promise<'pending' | 'settled'> =>
  Promise.race([promise.then(() => 'settled' as const, () => 'settled' as const), new Promise<'pending'>((r) => setTimeout(() => r('pending'), 100))])

describe('TokenManager under cancellation', () => {
  it('lets a caller stop waiting while another still gets the token from the same request', async () => {
    const endpoint = await heldTokenEndpoint()
    const tokens = new TokenManager(endpoint.url, async () => CREDENTIALS)
    const stopping = new AbortController()
    const leaving = tokens.get(stopping.signal)
    const staying = tokens.get()
    const request = await endpoint.request(1)

    stopping.abort()
    await expect(leaving).rejects.toBeInstanceOf(CancelledError)
    // The renewal goes on for the one still waiting: its request is open, not aborted.
    expect(await settled(request.abandoned)).toBe('pending')
    request.answer('tok-1')
    expect(await staying).toBe('tok-1')
    expect(endpoint.held).toHaveLength(1)
  })

  it('aborts the token request when the only waiter stops, and a later caller starts afresh', async () => {
    const endpoint = await heldTokenEndpoint()
    const tokens = new TokenManager(endpoint.url, async () => CREDENTIALS)
    const stopping = new AbortController()
    const leaving = tokens.get(stopping.signal)
    const first = await endpoint.request(1)

    stopping.abort()
    await expect(leaving).rejects.toBeInstanceOf(CancelledError)
    await first.abandoned // the socket was closed by the client: nothing waits on it
    const later = tokens.get()
    const second = await endpoint.request(2)
    second.answer('tok-2')
    expect(await later).toBe('tok-2')
  })

  it('refuses at once, with no request, when the signal has already aborted', async () => {
    const endpoint = await heldTokenEndpoint()
    const tokens = new TokenManager(endpoint.url, async () => CREDENTIALS)
    await expect(tokens.get(AbortSignal.abort())).rejects.toBeInstanceOf(CancelledError)
    await new Promise((r) => setTimeout(r, 50))
    expect(endpoint.held).toHaveLength(0)
  })
})

describe('a client stopped while rate-limited', () => {
  it('ends a 300 s Retry-After at once; the gate\'s back-off ends for the next call too; nothing more is sent', async () => {
    const sim = await startSimulator({ liveSessions: 2, endedSessions: 0, viewersPerSession: 5, churnSessions: false })
    onTestFinished(() => sim.close())
    const limiter = new RequestLimiter()
    const client = new ReportingClient(simulatorTarget(sim), async () => sim.credentials, { limiter })
    sim.faults.rateLimit(Infinity, { retryAfterSeconds: 300 })

    const stop = new AbortController()
    const listing = client.listSessions({}, { signal: stop.signal })
    // Waits for the client to have read the 429 (the service logging it is not enough: a stop
    // between the two would end the call before any back-off, and test nothing of the wait).
    while (!sim.stats.log.some((r) => r.status === 429) || limiter.backOffRemaining('test') === 0) await new Promise((r) => setTimeout(r, 5))
    const started = performance.now()
    stop.abort()
    await expect(listing).rejects.toBeInstanceOf(CancelledError)
    expect(performance.now() - started).toBeLessThan(1000)
    // The connection is held for 300 s in the gate: a call stopped there ends at once as well.
    expect(limiter.backOffRemaining('test')).toBeGreaterThan(200_000)
    const next = new AbortController()
    const held = client.getSession('any', {}, { signal: next.signal })
    setTimeout(() => next.abort(), 50)
    await expect(held).rejects.toBeInstanceOf(CancelledError)
    await new Promise((r) => setTimeout(r, 100))
    expect(sim.stats.dataRequests).toBe(1)
  })
})
