// A connection with its own proxy and CA (issue 15), over loopback: the service's name known only
// to a company proxy that wants a user and password, its certificate from a private CA that this
// machine does not trust. "Test connection" must succeed through both, and name exactly what is
// wrong when one is missing: the proxy's refusal, its authentication, the certificate.
import { execFile } from 'node:child_process'
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { promisify } from 'node:util'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionTarget } from '../../src/main/core/api/connection'
import { testConnection } from '../../src/main/core/connections/test-connection'
import type { ConnectionNetwork } from '../../src/main/core/net/connection-fetch'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT } from '../support/cli'
import { connectProxy, privateCa, tlsFront, type PrivateCa } from '../support/corporate-network'

const run = promisify(execFile)

const NAME = 'reporting.internal'
const USER = 'alice'
const PASSWORD = 'proxy-pass-42'
let home: string
let sim: RunningSimulator
let ca: PrivateCa
let caPem: string
let front: Awaited<ReturnType<typeof tlsFront>>
let proxy: Awaited<ReturnType<typeof connectProxy>>
const savedEnv = { ...process.env }

beforeAll(async () => {
  // Nothing from the environment: the connection's own settings are under test.
  for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'NODE_EXTRA_CA_CERTS']) delete process.env[name]
  home = mkdtempSync(join(tmpdir(), 'eventwatch-network-'))
  ca = privateCa(home, NAME)
  caPem = readFileSync(ca.caFile, 'utf8')
  sim = await startSimulator({ liveSessions: 1, endedSessions: 1, viewersPerSession: 5, churnSessions: false })
  front = await tlsFront(sim.baseUrl, ca)
  proxy = await connectProxy({ [`${NAME}:443`]: front.port }, { user: USER, password: PASSWORD })
}, 30_000)

afterAll(async () => {
  process.env = savedEnv
  await proxy?.close()
  await front?.close()
  await sim?.close()
  rmSync(home, { recursive: true, force: true })
})

function target(network: ConnectionNetwork, host = NAME): ConnectionTarget {
  const url = `https://${host}`
  const c = sim.credentials
  return { id: 'corp', name: 'Corp', baseUrl: url, authUrl: url, platformId: c.platformId, tenantId: c.tenantId, clientId: c.clientId, network }
}

const proxyUrl = (): string => `http://${USER}@127.0.0.1:${proxy.port}`
const credentials = async () => ({ clientId: sim.credentials.clientId, clientSecret: sim.credentials.clientSecret })
const failure = (report: Awaited<ReturnType<typeof testConnection>>): string => report.steps.find((s) => !s.ok)?.message ?? 'no failed step'

describe('a connection with its own proxy and CA', () => {
  it('reaches a service only the proxy can name, trusting the CA given with the connection', async () => {
    const before = proxy.tunnels.length
    const report = await testConnection(target({ proxyUrl: proxyUrl(), proxyPassword: async () => PASSWORD, caCertificate: caPem }), credentials)
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([['secret', true], ['token', true], ['sessions', true]])
    expect(proxy.tunnels.slice(before)).toContain(`${NAME}:443`)
  }, 20_000)

  it('names proxy authentication when the password is missing or wrong', async () => {
    for (const password of [null, 'wrong']) {
      const report = await testConnection(target({ proxyUrl: proxyUrl(), proxyPassword: async () => password, caCertificate: caPem }), credentials)
      expect(report.ok).toBe(false)
      expect(failure(report)).toBe(
        `the proxy 127.0.0.1:${proxy.port} requires authentication (HTTP 407 from the proxy): give the proxy user and password with the proxy address.`
      )
    }
  }, 20_000)

  it('names the proxy refusing to reach a host', async () => {
    const report = await testConnection(target({ proxyUrl: proxyUrl(), proxyPassword: async () => PASSWORD, caCertificate: caPem }, 'elsewhere.internal'), credentials)
    expect(failure(report)).toMatch(
      new RegExp(`^the proxy 127\\.0\\.0\\.1:${proxy.port} refused to reach elsewhere\\.internal: .*HTTP 502 from the proxy.*Check that the proxy lets this machine reach`)
    )
  }, 20_000)

  it('names a proxy that is not listening', async () => {
    const closed = await freePort()
    const report = await testConnection(target({ proxyUrl: `http://127.0.0.1:${closed}`, caCertificate: caPem }), credentials)
    expect(failure(report)).toBe(`the proxy 127.0.0.1:${closed} refused the connection: nothing is listening there. Check the proxy address and port.`)
  }, 20_000)

  it('names the certificate and why it is refused when the CA is not given', async () => {
    const report = await testConnection(target({ proxyUrl: proxyUrl(), proxyPassword: async () => PASSWORD }), credentials)
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([['secret', true], ['token', false]])
    const message = failure(report)
    expect(message).toMatch(/^certificate problem talking to reporting\.internal: the certificate "reporting\.internal" issued by "Eventwatch Test CA" \(valid .+ to .+\) is not trusted: the server certificate cannot be verified \(its issuer is not trusted here, or an intermediate is missing\) \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\./)
    expect(message).toContain("the connection's extra CA certificate, or NODE_EXTRA_CA_CERTS")
  }, 20_000)

  it('names a certificate for another name', async () => {
    // The front's certificate is for reporting.internal and 127.0.0.1, not for "localhost".
    const report = await testConnection({ ...target({ caCertificate: caPem }), baseUrl: `https://localhost:${front.port}`, authUrl: `https://localhost:${front.port}` }, credentials)
    expect(failure(report)).toMatch(
      /^certificate problem talking to localhost:\d+: the certificate "reporting\.internal" issued by "Eventwatch Test CA" .* does not match the host name: .*Host: localhost\. is not in the cert's altnames: DNS:reporting\.internal, IP Address:127\.0\.0\.1\. Check the auth URL: use a name the certificate is for\.$/
    )
  }, 20_000)
})

describe('eventwatch connections add --proxy --ca-cert', () => {
  it('saves the proxy (its password in the keychain only) and the CA, then syncs through them', async () => {
    const db = join(home, 'cli.db')
    const c = sim.credentials
    const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: c.clientSecret, EVENTWATCH_PROXY_PASSWORD: PASSWORD, HTTPS_PROXY: '', NODE_EXTRA_CA_CERTS: '' })
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, ...args, '--db', db], { cwd: ROOT, env })
    const added = await cli('connections', 'add', 'Corp', '--base-url', `https://${NAME}`, '--auth-url', `https://${NAME}`,
      '--platform-id', c.platformId, '--tenant-id', c.tenantId, '--client-id', c.clientId, '--proxy', proxyUrl(), '--ca-cert', ca.caFile)
    expect(added.stdout).toBe(`Saved "Corp" (secret in the OS keychain; through proxy http://${USER}@127.0.0.1:${proxy.port}, trusting its own CA).\n`)

    const [listed] = JSON.parse((await cli('connections', 'list', '--json')).stdout) as { proxyUrl: string; proxyPasswordStored: boolean; caCertificate: string }[]
    expect(listed).toMatchObject({ proxyUrl: `http://${USER}@127.0.0.1:${proxy.port}`, proxyPasswordStored: true })
    expect(listed?.caCertificate.trim()).toBe(caPem.trim())
    // The password is in the keychain, never in the cache file.
    expect(readFileSync(db).includes(Buffer.from(PASSWORD))).toBe(false)

    const tested = await cli('connections', 'test', 'Corp')
    expect(tested.stdout).toMatch(/got an access token from reporting\.internal/)

    const before = proxy.tunnels.length
    await cli('sync', '--once', '--connection', 'Corp')
    expect(proxy.tunnels.slice(before)).toContain(`${NAME}:443`)
  }, 60_000)

  it('refuses a password on the command line', async () => {
    const c = sim.credentials
    const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: c.clientSecret })
    const refused = await run(process.execPath, [CLI_BIN, 'connections', 'add', 'Leaky', '--base-url', `https://${NAME}`, '--auth-url', `https://${NAME}`,
      '--platform-id', c.platformId, '--tenant-id', c.tenantId, '--client-id', c.clientId, '--proxy', `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}`,
      '--db', join(home, 'leaky.db')], { cwd: ROOT, env }).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 2 })
    expect((refused as { stderr: string }).stderr).toMatch(/^eventwatch: --proxy must not carry a password .* EVENTWATCH_PROXY_PASSWORD or at the prompt\.$/m)
  }, 30_000)
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}
