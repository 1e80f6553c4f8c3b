// `eventwatch serve` as a real child process, as a load balancer and Prometheus meet it: the
// loopback host and a team server each answer /healthz and /readyz without a token, and /metrics
// only with one (the launch's token, a user's) — the CLI's core is the one that measures.
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { latestSchema } from '../../src/main/core/store/migrate'
import { homeEnv } from '../support/cli'
import { startCli } from '../support/cli-processes'
import { addUserByCli, freePort } from '../support/cli-team'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-health-serve-')

async function probes(origin: string): Promise<void> {
  const health = await fetch(`${origin}/healthz`)
  expect([health.status, await health.text()]).toEqual([200, 'ok\n'])
  const ready = await fetch(`${origin}/readyz`)
  expect([ready.status, await ready.text()]).toEqual([200, `ready: schema ${latestSchema()}\n`])
  const refused = await fetch(`${origin}/metrics`, { redirect: 'manual' })
  expect(refused.status).toBe(401)
}

/** /metrics with `token`, once the demo connection has polled at least once. */
async function polledMetrics(origin: string, token: string): Promise<string> {
  let text = ''
  await vi.waitFor(
    async () => {
      const response = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      text = await response.text()
      expect(text).toMatch(/^eventwatch_polls_total\{connection_id="[^"]+",connection_name="Demo data",kind="discovery"\} [1-9]\d*$/m)
    },
    { timeout: 60_000, interval: 200 }
  )
  return text
}

describe('eventwatch serve: health and metrics', () => {
  it('the loopback host: probes for anyone, /metrics with the launch token', async () => {
    const dir = newDir()
    const serve = startCli(['serve', '--port', '0', '--db', join(dir, 'cache.db'), '--interval', '1'], homeEnv(dir))
    try {
      const [, origin, token] = await serve.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/, 120_000)
      await probes(origin!)
      const text = await polledMetrics(origin!, token!)
      expect(text).toMatch(/^eventwatch_connection_state\{connection_id="[^"]+",connection_name="Demo data",state="connected"\} 1$/m)
    } finally {
      await serve.stop()
    }
  }, 180_000)

  it('a team server: probes for anyone, /metrics with a user’s token', async () => {
    const dir = newDir()
    const file = join(dir, 'team.db')
    const env = homeEnv(dir)
    const token = await addUserByCli(file, 'prometheus', env)
    const port = await freePort()
    const serve = startCli(['serve', '--listen', `127.0.0.1:${port}`, '--db', file, '--interval', '1'], env)
    try {
      const [, origin] = await serve.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)/, 120_000)
      await probes(origin!)
      await polledMetrics(origin!, token)
    } finally {
      await serve.stop()
    }
  }, 180_000)
})
