// "Test connection" over real loopback HTTP(S): the simulator, and small servers that fail the
// ways real services and wrong addresses do. Every failure must come back in plain words.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionTarget, Credentials } from '../../src/main/core/api/connection'
import { ConnectionError } from '../../src/main/core/connections/errors'
import { testConnection } from '../../src/main/core/connections/test-connection'
import { DEMO_CREDENTIALS, startSimulator } from '../../src/main/core/simulator/server'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const demo = async (): Promise<Credentials> => ({
  clientId: DEMO_CREDENTIALS.clientId,
  clientSecret: DEMO_CREDENTIALS.clientSecret
})

function target(baseUrl: string, overrides: Partial<ConnectionTarget> = {}): ConnectionTarget {
  return {
    id: 'test',
    name: 'Test',
    baseUrl,
    authUrl: baseUrl,
    platformId: DEMO_CREDENTIALS.platformId,
    tenantId: DEMO_CREDENTIALS.tenantId,
    clientId: DEMO_CREDENTIALS.clientId,
    ...overrides
  }
}

async function simulator(sessionsPageSize = 5) {
  const sim = await startSimulator({ viewersPerSession: 5, churnSessions: false, sessionsPageSize })
  cleanups.push(() => sim.close())
  return sim
}

async function listen(server: Server, scheme: 'http' | 'https' = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as AddressInfo
  return `${scheme}://127.0.0.1:${port}`
}

const loopback = (handler: RequestListener) => listen(createHttpServer(handler))

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createHttpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const stepNames = (report: { steps: { step: string }[] }) => report.steps.map((s) => s.step)

describe('testConnection', () => {
  it('reports every step in plain words when all is well', async () => {
    const sim = await simulator(5)
    const report = await testConnection(target(sim.baseUrl), demo)
    expect(report.ok).toBe(true)
    expect(report.steps).toEqual([
      { step: 'secret', ok: true, message: 'a client secret is available' },
      { step: 'token', ok: true, message: `got an access token from ${new URL(sim.authUrl).host}` },
      { step: 'sessions', ok: true, message: 'read the first page of sessions: 5 sessions; more pages follow' }
    ])
  })

  it('says when there is no secret, and stops there', async () => {
    const sim = await simulator()
    const missing = async (): Promise<Credentials> => {
      throw new ConnectionError('configuration', 'no client secret stored for Test: save one, or set EVENTWATCH_CLIENT_SECRET')
    }
    const report = await testConnection(target(sim.baseUrl), missing)
    expect(report).toEqual({
      ok: false,
      steps: [{ step: 'secret', ok: false, message: 'no client secret stored for Test: save one, or set EVENTWATCH_CLIENT_SECRET' }]
    })
    const empty = await testConnection(target(sim.baseUrl), async () => ({ clientId: 'x', clientSecret: '' }))
    expect(empty.steps).toEqual([{ step: 'secret', ok: false, message: expect.stringMatching(/no client secret/) }])
  })

  it('a wrong secret fails the token step as wrong client ID or secret', async () => {
    const sim = await simulator()
    const report = await testConnection(target(sim.baseUrl), async () => ({ clientId: 'demo-client', clientSecret: 'wrong-secret-123' }))
    expect(report.ok).toBe(false)
    expect(stepNames(report)).toEqual(['secret', 'token'])
    expect(report.steps[1]?.message).toMatch(/^wrong client ID or client secret: the service refused them \(HTTP 401\)/)
  })

  it('a tenant the client may not read fails the sessions step with permission words', async () => {
    const sim = await simulator()
    const report = await testConnection(target(sim.baseUrl, { tenantId: 'other-tenant' }), demo)
    expect(stepNames(report)).toEqual(['secret', 'token', 'sessions'])
    expect(report.steps[2]).toEqual({
      step: 'sessions',
      ok: false,
      message: expect.stringMatching(
        /^access denied \(HTTP 403\): this client may not read platform-id "demo-platform" \/ tenant-id "other-tenant"/
      )
    })
  })

  it('an unknown host says so and points at the URL', async () => {
    // .invalid never resolves (RFC 6761): nothing leaves this machine.
    const report = await testConnection(target('https://nonexistent.invalid'), demo)
    expect(report.ok).toBe(false)
    expect(report.steps[1]?.message).toMatch(/^unknown host: "nonexistent.invalid" could not be found\. Check the auth URL/)
  })

  it('a closed port says connection refused', async () => {
    const port = await closedPort()
    const report = await testConnection(target(`http://127.0.0.1:${port}`), demo)
    expect(report.steps[1]?.message).toMatch(new RegExp(`^connection refused by 127\\.0\\.0\\.1:${port}`))
  })

  it('an HTML page instead of the API is an unexpected response', async () => {
    const url = await loopback((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      res.end('<!doctype html><html><body><h1>Welcome to our intranet</h1></body></html>')
    })
    const report = await testConnection(target(url), demo)
    expect(report.steps[1]?.message).toMatch(/^unexpected response from 127\.0\.0\.1:\d+.*: the address may not be the reporting API/)
  })

  it('a 404 asks to check the URL', async () => {
    const url = await loopback((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' })
      res.end('no such page')
    })
    const report = await testConnection(target(url), demo)
    expect(report.steps[1]?.message).toMatch(/^nothing found at 127\.0\.0\.1:\d+ \(HTTP 404\): check the auth URL/)
  })

  it('a certificate this machine does not trust is a TLS error naming the problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-tls-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
      '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' })
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => res.end('{}'))
    const url = await listen(server, 'https')
    const report = await testConnection(target(url), demo)
    // Which certificate (tls-probe.ts), and why it is refused.
    expect(report.steps[1]?.message).toMatch(
      /^certificate problem talking to 127\.0\.0\.1:\d+: the certificate "127\.0\.0\.1" issued by "127\.0\.0\.1" \(valid .+\) is not trusted: the server certificate is self-signed \(DEPTH_ZERO_SELF_SIGNED_CERT\)\./
    )
  })

  it('never puts the secret or the token in a message, even when the service echoes them', async () => {
    const secret = 'echoed-secret-5f0c2a'
    const token = 'echoed-token-9b71d3'
    // A token endpoint that refuses with the request body in its error, and one that issues a
    // token which the data endpoint then quotes back.
    const refusing = await loopback((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        res.writeHead(500, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ message: `cannot handle ${body}` }))
      })
    })
    const quoting = await loopback((req, res) => {
      res.writeHead(req.url === '/v2/auth/token' ? 200 : 500, { 'Content-Type': 'application/json' })
      res.end(
        JSON.stringify(
          req.url === '/v2/auth/token'
            ? { access_token: token, expires_in: 3600 }
            : { message: `rejected ${req.headers.authorization ?? ''}` }
        )
      )
    })
    const creds = async () => ({ clientId: 'c', clientSecret: secret })
    const sim = await simulator()
    const reports = [
      await testConnection(target(refusing), creds),
      await testConnection(target(quoting), creds),
      await testConnection(target(sim.baseUrl), async () => ({ clientId: 'demo-client', clientSecret: secret })),
      await testConnection(target(sim.baseUrl), demo)
    ]
    expect(reports.map((r) => stepNames(r).at(-1))).toEqual(['token', 'sessions', 'token', 'sessions'])
    expect(reports[0]?.steps[1]?.message).toMatch(/the service had a problem \(HTTP 500\)/)
    expect(reports[1]?.steps[2]?.message).toMatch(/the service had a problem \(HTTP 500\)/)
    for (const report of reports) {
      const text = JSON.stringify(report)
      expect(text).not.toContain(secret)
      expect(text).not.toContain(token)
      expect(text).not.toContain(DEMO_CREDENTIALS.clientSecret)
    }
  })
})
