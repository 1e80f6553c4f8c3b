// A 429 with Retry-After holds the whole connection in the shared gate, not just the request
// that got it; other connections go on. Real HTTP to the simulator; time moves only on sleeps.
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { RequestLimiter } from '../../src/main/core/api/limiter'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { simulatorTarget } from '../support/simulator-connection'

const running: RunningSimulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()))
})

describe('rate limiting through the shared gate', () => {
  it('makes every request of the limited connection wait out Retry-After', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const gateSleeps: number[] = []
    const limiter = new RequestLimiter({
      maxInFlight: 4,
      perSecond: 100,
      clock: () => now,
      sleep: async (ms) => {
        gateSleeps.push(ms)
        now += ms
      }
    })
    const sim = await startSimulator({ clock: () => now, liveSessions: 2, endedSessions: 0, viewersPerSession: 5, churnSessions: false })
    running.push(sim)
    const target = (id: string) => simulatorTarget(sim, { id, name: id })
    const options = { clock: () => now, limiter, retry: { sleep: async () => undefined, random: () => 0.5 } }
    const limited = new ReportingClient(target('limited'), async () => sim.credentials, options)
    const other = new ReportingClient(target('other'), async () => sim.credentials, options)

    sim.faults.rateLimit(1, { retryAfterSeconds: 3 })
    const list = await limited.listSessions()
    expect(list.sessions.length).toBe(2)
    // The retry went through the gate, which held the connection for the 3 s asked.
    expect(gateSleeps).toEqual([3000])
    expect(limiter.backOffRemaining('limited')).toBe(0)

    // While a connection is held, another one is not.
    limiter.backOff('limited', 10_000)
    await other.listSessions()
    expect(gateSleeps).toEqual([3000])
    await limited.getSession(list.sessions[0]!.eventSessionId)
    expect(gateSleeps).toEqual([3000, 10_000])
  })
})
