// The browser host's access control over real loopback HTTP: only the printed address (its
// per-launch token) gets in; no token, a wrong one, a foreign Origin or Host, or a cross-site
// fetch is refused on every kind of path, and every answer carries the security headers.
import { connect } from 'node:net'
import { networkInterfaces } from 'node:os'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppCore, EventListener } from '../../src/main/core/app/types'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { rawRequest, type RawAnswer } from '../support/raw-http'

const INDEX_HTML = '<!doctype html><html><body><div id="app"></div></body></html>'
const APP_JS = 'console.log("eventwatch renderer")'

let dir: string
let host: WebHost
let port: number
const listeners = new Set<EventListener>()
const dispatch = vi.fn(async () => ({ ok: true as const, value: 'answered' }))
const core = {
  dispatch,
  onEvent: (listener: EventListener) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
  close: async () => undefined
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-access-'))
  const rendererDir = join(dir, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), INDEX_HTML)
  writeFileSync(join(rendererDir, 'assets', 'app.js'), APP_JS)
  dispatch.mockClear()
  listeners.clear()
  host = await startWebHost({ core: core as unknown as AppCore, rendererDir, port: 0 })
  port = host.address.port
})

afterEach(async () => {
  await host.close()
  rmSync(dir, { recursive: true, force: true })
})

type Answer = RawAnswer

function send(path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return rawRequest(port, path, {
    ...options,
    headers: { Host: `127.0.0.1:${port}`, ...options.headers },
    body: options.method === 'POST' ? '{}' : undefined
  })
}

function expectSecurityHeaders(answer: Answer, what: string): void {
  expect(answer.headers['content-security-policy'], what).toContain("frame-ancestors 'none'")
  expect(answer.headers['content-security-policy'], what).toContain("script-src 'self'")
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff')
  expect(answer.headers['referrer-policy'], what).toBe('no-referrer')
  expect(answer.headers['x-frame-options'], what).toBe('DENY')
}

const PATHS = [
  { kind: 'page', method: 'GET', path: '/' },
  { kind: 'static', method: 'GET', path: '/assets/app.js' },
  { kind: 'request', method: 'POST', path: '/api/request/getStatus' },
  { kind: 'events', method: 'GET', path: '/api/events' }
] as const

const bearer = (): Record<string, string> => ({ Authorization: `Bearer ${host.token}` })
const cookie = (): Record<string, string> => ({ Cookie: `eventwatch-${port}=${host.token}` })

/** Sends every kind of path with these headers and checks each is refused as expected. */
async function expectRefusedEverywhere(
  headers: () => Record<string, string>,
  status: number,
  code: string,
  paths: readonly (typeof PATHS)[number][] = PATHS
): Promise<void> {
  for (const { kind, method, path } of paths) {
    const answer = await send(path, { method, headers: { 'Content-Type': 'application/json', ...headers() } })
    const what = `${kind} ${method} ${path}`
    expect(answer.status, what).toBe(status)
    expectSecurityHeaders(answer, what)
    expect(answer.body, what).not.toContain(INDEX_HTML)
    expect(answer.body, what).not.toContain(APP_JS)
    if (path.startsWith('/api/')) {
      expect(answer.headers['content-type'], what).toMatch(/^application\/json/)
      expect(JSON.parse(answer.body), what).toEqual({ ok: false, error: { code, message: expect.any(String) } })
    } else {
      expect(answer.headers['content-type'], what).toMatch(/^text\/plain/)
    }
  }
  expect(dispatch).not.toHaveBeenCalled()
  expect(listeners.size).toBe(0)
}

describe('browser host access', () => {
  it('prints an address with a fresh 32-byte token on its own origin', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${port}/?token=${host.token}`)
    expect(host.origin).toBe(`http://127.0.0.1:${port}`)
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32)
    const second = await startWebHost({ core: core as unknown as AppCore, rendererDir: join(dir, 'renderer'), port: 0 })
    try {
      expect(second.token).not.toBe(host.token)
    } finally {
      await second.close()
    }
  })

  it('refuses every path without the token, saying to open the printed address', async () => {
    await expectRefusedEverywhere(() => ({}), 401, 'unauthorized')
    const page = await send('/')
    expect(page.body).toMatch(/eventwatch serve.*printed/)
    const api = JSON.parse((await send('/api/events')).body) as { error: { message: string } }
    expect(api.error.message).toMatch(/eventwatch serve.*printed/)
  })

  it('refuses a wrong token in the cookie, the Bearer header or the address', async () => {
    await expectRefusedEverywhere(() => ({ Cookie: `eventwatch-${port}=${host.token.slice(1)}x` }), 401, 'unauthorized')
    await expectRefusedEverywhere(() => ({ Authorization: `Bearer ${host.token}x` }), 401, 'unauthorized')
    // The right token under another port's cookie name belongs to another host.
    await expectRefusedEverywhere(() => ({ Cookie: `eventwatch-${port + 1}=${host.token}` }), 401, 'unauthorized')
    const wrongAddress = await send('/?token=not-this-launch')
    expect(wrongAddress.status).toBe(401)
    expect(wrongAddress.headers['set-cookie']).toBeUndefined()
    expect(wrongAddress.headers.location).toBeUndefined()
    expectSecurityHeaders(wrongAddress, 'wrong address')
  })

  it('refuses a foreign Origin with 403, even with the token', async () => {
    for (const origin of ['https://evil.example', `http://evil.example:${port}`, 'null', `http://127.0.0.1:${port + 1}`]) {
      await expectRefusedEverywhere(() => ({ ...bearer(), Origin: origin }), 403, 'foreign-origin')
    }
  })

  it('refuses a foreign Host with 421, even with the token (DNS rebinding)', async () => {
    for (const name of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      await expectRefusedEverywhere(() => ({ ...cookie(), Host: name }), 421, 'wrong-host')
    }
  })

  it('refuses cross-site and same-site fetches of the API, even with the cookie', async () => {
    const api = PATHS.filter((p) => p.path.startsWith('/api/'))
    for (const site of ['cross-site', 'same-site']) {
      await expectRefusedEverywhere(() => ({ ...cookie(), 'Sec-Fetch-Site': site }), 403, 'cross-site', api)
    }
  })

  it('turns the printed address into a cookie and a redirect to "/" only', async () => {
    for (const path of [
      `/?token=${host.token}`,
      `/?token=${host.token}&next=https://evil.example/`,
      `/?next=//evil.example&token=${host.token}`,
      `//evil.example/?token=${host.token}`,
      `/\\evil.example/?token=${host.token}`,
      `/assets/app.js?token=${host.token}`
    ]) {
      const answer = await send(path)
      expect(answer.status, path).toBe(303)
      expect(answer.headers.location, path).toBe('/')
      expect(answer.headers['set-cookie'], path).toEqual([`eventwatch-${port}=${host.token}; HttpOnly; SameSite=Strict; Path=/`])
      expect(answer.headers['cache-control'], path).toBe('no-store')
      expectSecurityHeaders(answer, path)
    }
  })

  it('serves everything with the cookie it set, or with the Bearer header', async () => {
    const entry = await send(`/?token=${host.token}`)
    const setCookie = entry.headers['set-cookie']?.[0] ?? ''
    const fromEntry = { Cookie: setCookie.split(';')[0]!, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin' }
    for (const headers of [fromEntry, bearer()]) {
      const page = await send('/', { headers })
      expect(page.status).toBe(200)
      expect(page.body).toBe(INDEX_HTML)
      expectSecurityHeaders(page, 'page')
      const script = await send('/assets/app.js', { headers })
      expect(script.status).toBe(200)
      expect(script.body).toBe(APP_JS)
      const answer = await send('/api/request/getStatus', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' } })
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({ ok: true, value: 'answered' })
      expectSecurityHeaders(answer, 'request')
      const events = await send('/api/events', { headers })
      expect(events.status).toBe(200)
      expect(events.headers['content-type']).toMatch(/^text\/event-stream/)
      expectSecurityHeaders(events, 'events')
    }
    expect(dispatch).toHaveBeenCalledTimes(2)
  })

  it('listens on 127.0.0.1 only', async () => {
    expect(host.address).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port })
    // Every other address of this machine, including other loopback ones, must refuse to connect.
    // Link-local IPv6 addresses need a zone to be reached at all, so they are left out.
    const others = Object.values(networkInterfaces())
      .flat()
      .map((info) => info?.address)
      .filter((address): address is string => !!address && address !== '127.0.0.1' && !address.startsWith('fe80:'))
    others.push('127.0.0.2')
    for (const address of others) {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect({ host: address, port })
        socket.once('connect', () => {
          socket.destroy()
          resolve('connected')
        })
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
      })
      expect(outcome, address).not.toBe('connected')
    }
  })
})
