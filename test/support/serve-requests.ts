// `eventwatch serve` processes as tests and the bench ask them: the app API with the token a
// server printed (or a user's), its /metrics, its connections' status, and a wait for a state.
// Nothing here needs a test runner's context, so a script outside vitest (the bench's team part)
// uses it too.
import { expect } from 'vitest'
import type { Status } from '../../src/shared/domain'
import type { ConnectionPollStatus } from '../../src/shared/poll-status'
import type { RunningCli } from './cli-processes'
import { parseExposition, type Parsed } from './exposition'

export interface Server {
  label: string
  cli: RunningCli
  origin: string
  /** The loopback host's launch token, or the team user's the test gave. */
  token: string
  pid: number
}

/** A request of the app API that must succeed (as `token`'s user, the server's own by default). */
export async function ask<T>(server: Server, name: string, args: unknown = {}, token = server.token): Promise<T> {
  const response = await fetch(`${server.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args)
  })
  const result = (await response.json()) as { ok: true; value: T } | { ok: false; error: { message: string } }
  if (!result.ok) throw new Error(`${name} on server ${server.label}: ${result.error.message}`)
  return result.value
}

export async function scrape(server: Server): Promise<Parsed> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { Authorization: `Bearer ${server.token}` } })
  expect(response.status).toBe(200)
  return parseExposition(await response.text())
}

export const statusOf = async (server: Server, connectionId: string): Promise<ConnectionPollStatus | undefined> =>
  (await ask<Status>(server, 'getStatus')).connections.find((c) => c.connectionId === connectionId)

/** Asks `read` until it answers something `test` passes. */
export async function eventually<T>(what: string, read: () => Promise<T>, test: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const seen = await read()
    if (test(seen)) return seen
    if (Date.now() > until) throw new Error(`${what}: never within ${timeoutMs} ms; last seen ${JSON.stringify(seen).slice(0, 800)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A connection connected, with a unit of work ended at or after `since`. */
export const polledSince = (since: number) => (c: ConnectionPollStatus | undefined): boolean =>
  c?.state === 'connected' && c.lastUpdateAt !== null && Date.parse(c.lastUpdateAt) >= since
