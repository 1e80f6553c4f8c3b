// `eventwatch sync` on a company network (issue 15): the service's name known only to the
// proxy (HTTPS_PROXY), its certificate from a private CA (NODE_EXTRA_CA_CERTS), NO_PROXY going
// around the proxy. A real CONNECT proxy, real TLS and the simulator, all over loopback.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { connectProxy, privateCa, tlsFront, type PrivateCa } from '../support/corporate-network'

const run = promisify(execFile)
const NAME = 'reporting.internal'
let home: string
let sim: RunningSimulator
let ca: PrivateCa
let front: Awaited<ReturnType<typeof tlsFront>>
let proxy: Awaited<ReturnType<typeof connectProxy>>

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-proxy-'))
  ca = privateCa(home, NAME)
  sim = await startSimulator({ liveSessions: 2, endedSessions: 1, viewersPerSession: 20, churnSessions: false })
  front = await tlsFront(sim.baseUrl, ca)
  proxy = await connectProxy({ [`${NAME}:443`]: front.port })
}, 30_000)

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await sim?.close()
  rmSync(home, { recursive: true, force: true })
})

/** `sync --once` against `origin`, with these extra environment variables. */
async function sync(origin: string, env: NodeJS.ProcessEnv, db: string): Promise<{ code: number; stderr: string }> {
  const c = sim.credentials
  const args = [CLI_BIN, 'sync', '--once', '--db', join(home, db), '--base-url', origin, '--auth-url', origin, '--platform-id', c.platformId, '--tenant-id', c.tenantId, '--client-id', c.clientId]
  const environment = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: c.clientSecret, HTTPS_PROXY: '', HTTP_PROXY: '', NO_PROXY: '', ...env })
  try {
    const { stderr } = await run(process.execPath, args, { cwd: ROOT, env: environment })
    return { code: 0, stderr }
  } catch (error) {
    const failed = error as { code: number; stderr: string }
    return { code: failed.code, stderr: failed.stderr }
  }
}

describe('sync on a company network', () => {
  it('reaches a service only the proxy can name, trusting the private CA given in NODE_EXTRA_CA_CERTS', async () => {
    const before = proxy.tunnels.length
    const result = await sync(`https://${NAME}`, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile }, 'through-proxy.db')
    expect(result).toMatchObject({ code: 0 })
    expect(proxy.tunnels.slice(before)).toContain(`${NAME}:443`)
  }, 30_000)

  it('names the certificate problem when the private CA is not given', async () => {
    const result = await sync(`https://${NAME}`, { HTTPS_PROXY: proxy.url }, 'no-ca.db')
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/^eventwatch: network error: POST \/v2\/auth\/token: TLS error: the server certificate cannot be verified/m)
  }, 30_000)

  it('cannot even find the name without the proxy', async () => {
    const result = await sync(`https://${NAME}`, { NODE_EXTRA_CA_CERTS: ca.caFile }, 'no-proxy.db')
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/^eventwatch: network error: POST \/v2\/auth\/token: unknown host$/m)
  }, 30_000)

  it('goes around the proxy for a host in NO_PROXY', async () => {
    const before = proxy.tunnels.length
    const result = await sync(`https://127.0.0.1:${front.port}`, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1', NODE_EXTRA_CA_CERTS: ca.caFile }, 'bypass.db')
    expect(result).toMatchObject({ code: 0 })
    expect(proxy.tunnels.length).toBe(before)
  }, 30_000)
})
