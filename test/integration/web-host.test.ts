// The browser host (src/main/web/server.ts) with a fake core: static files, the request API,
// the event stream, and the loopback-only guards. Requests carry the launch's token as a Bearer
// header; web-host-access.test.ts covers what happens without it.
import { request, type IncomingMessage } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppCore, EventListener } from '../../src/main/core/app/types'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp'
import { rawRequest, type RawAnswer, type RawRequest } from '../support/raw-http'

const INDEX_HTML = '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>'
const APP_JS = 'console.log("eventwatch renderer")'

function fakeCore() {
  const listeners = new Set<EventListener>()
  return {
    listeners,
    dispatch: vi.fn(async (_name: unknown, _args: unknown) => ({ ok: true as const, value: 1 })),
    onEvent: vi.fn((listener: EventListener) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    }),
    close: vi.fn(async () => undefined),
    emit(name: string, payload: unknown) {
      for (const l of listeners) (l as (n: string, p: unknown) => void)(name, payload)
    }
  }
}

let dir: string
let rendererDir: string
let host: WebHost | null
let core: ReturnType<typeof fakeCore>
let port: number

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-web-'))
  rendererDir = join(dir, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), INDEX_HTML)
  writeFileSync(join(rendererDir, 'assets', 'app.js'), APP_JS)
  // Files just outside the served directory, which no URL may reach.
  writeFileSync(join(dir, 'secret.txt'), 'top secret')
  writeFileSync(join(dir, 'package.json'), '{"name":"not-for-you"}')
  core = fakeCore()
  host = await startWebHost({ core: core as unknown as AppCore, rendererDir, port: 0 })
  port = Number(new URL(host.url).port)
})

afterEach(async () => {
  await host?.close()
  host = null
  rmSync(dir, { recursive: true, force: true })
})

type RawResponse = RawAnswer

/** A raw HTTP request with this launch's token: the path is sent as written (fetch would normalise `..` away). */
const raw = (path: string, options: RawRequest = {}): Promise<RawResponse> =>
  rawRequest(port, path, {
    ...options,
    headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${host!.token}`, ...options.headers }
  })

const post = (name: string, body?: string) =>
  raw(`/api/request/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })

describe('browser host', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(host?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/)
    expect(host?.origin).toBe(`http://127.0.0.1:${port}`)
    expect(port).toBeGreaterThan(0)
  })

  it('is not reachable on another local address', async () => {
    // 127.0.0.2 is loopback too on Linux, but the socket is bound to 127.0.0.1 exactly.
    const attempt = new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.2', port, path: '/', headers: { Host: `127.0.0.1:${port}` } }, (res) => {
        res.resume()
        resolve(`answered ${res.statusCode}`)
      })
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'))
      req.end()
    })
    expect(await attempt).not.toMatch(/^answered/)
  })

  it('serves index.html at / with the CSP and nosniff headers', async () => {
    const res = await raw('/')
    expect(res.status).toBe(200)
    expect(res.body).toBe(INDEX_HTML)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
    expect(res.headers['content-security-policy']).toContain("script-src 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('serves assets with their content type', async () => {
    const res = await raw('/assets/app.js')
    expect(res.status).toBe(200)
    expect(res.body).toBe(APP_JS)
    expect(res.headers['content-type']).toMatch(/^text\/javascript/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('answers 404 for a missing file and for a directory', async () => {
    expect((await raw('/assets/missing.js')).status).toBe(404)
    expect((await raw('/assets')).status).toBe(404)
  })

  it.each([
    '/../package.json',
    '/../secret.txt',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e/secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%2fsecret.txt',
    '/assets/%00.js',
    '/%E0%A4%A'
  ])('answers 404 for the traversal attempt %s', async (path) => {
    const res = await raw(path)
    expect(res.status).toBe(404)
    expect(res.body).not.toContain('top secret')
    expect(res.body).not.toContain('not-for-you')
    expect(res.body).not.toContain('root:')
  })

  it('forwards POST /api/request/<name> to dispatch and returns its Result as JSON', async () => {
    const res = await post('getStatus', '{}')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(res.body)).toEqual({ ok: true, value: 1 })
    expect(core.dispatch).toHaveBeenCalledTimes(1)
    // As this machine's administrator: the loopback host's one user.
    expect(core.dispatch).toHaveBeenCalledWith('getStatus', {}, { actor: { name: expect.any(String), role: 'admin' }, team: false })
  })

  it('passes the parsed arguments and an empty body as {}', async () => {
    await post('getSession', JSON.stringify({ connectionId: 'demo', eventSessionId: 'abc' }))
    expect(core.dispatch).toHaveBeenLastCalledWith('getSession', { connectionId: 'demo', eventSessionId: 'abc' }, expect.anything())
    await post('listLiveSessions')
    expect(core.dispatch).toHaveBeenLastCalledWith('listLiveSessions', {}, expect.anything())
  })

  it('returns a failed Result from dispatch as it is', async () => {
    core.dispatch.mockResolvedValueOnce({ ok: false, error: { code: 'unknown-request', message: 'Unknown request "x".' } } as never)
    const res = await post('x', '{}')
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ ok: false, error: { code: 'unknown-request', message: 'Unknown request "x".' } })
  })

  it('answers 400 with {ok:false} for a body that is not JSON, without dispatching', async () => {
    const res = await post('getStatus', '{not json')
    expect(res.status).toBe(400)
    const body = JSON.parse(res.body)
    expect(body.ok).toBe(false)
    expect(typeof body.error.code).toBe('string')
    expect(core.dispatch).not.toHaveBeenCalled()
  })

  it('answers a malformed request name with a client error, not a 500, without dispatching', async () => {
    const res = await post('%E0%A4%A', '{}')
    expect(JSON.parse(res.body).ok).toBe(false)
    expect(res.status).toBeGreaterThanOrEqual(200)
    expect(res.status).toBeLessThan(500)
    expect(core.dispatch).not.toHaveBeenCalled()
  })

  it('answers 405 to GET on /api/request/<name>, without dispatching', async () => {
    const res = await raw('/api/request/x')
    expect(res.status).toBe(405)
    expect(JSON.parse(res.body).ok).toBe(false)
    expect(core.dispatch).not.toHaveBeenCalled()
  })

  it('answers 405 to a POST of a static path', async () => {
    expect((await raw('/', { method: 'POST', body: '{}' })).status).toBe(405)
  })

  it.each(['evil.example', 'evil.example:PORT', '127.0.0.1', 'localhost', '127.0.0.1:1', 'attacker.test:PORT'])(
    'answers 421 for Host %s and does not dispatch',
    async (hostHeader) => {
      const value = hostHeader.replace('PORT', String(port))
      for (const path of ['/', '/api/request/getStatus']) {
        const res =
          path === '/'
            ? await raw(path, { headers: { Host: value } })
            : await raw(path, { method: 'POST', headers: { Host: value, 'Content-Type': 'application/json' }, body: '{}' })
        expect(res.status, `${value} ${path}`).toBe(421)
        expect(res.body).not.toContain(INDEX_HTML)
      }
      expect(core.dispatch).not.toHaveBeenCalled()
    }
  )

  it('accepts Host localhost:<port> as well as 127.0.0.1:<port>', async () => {
    expect((await raw('/', { headers: { Host: `localhost:${port}` } })).status).toBe(200)
    expect((await raw('/', { headers: { Host: `127.0.0.1:${port}` } })).status).toBe(200)
  })

  it('streams a pushed event as "event: <name>" and "data: <json>", and unsubscribes when the client leaves', async () => {
    const received = await new Promise<{ text: string; headers: IncomingMessage['headers']; close: () => void }>(
      (resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/events',
            headers: { Host: `127.0.0.1:${port}`, Accept: 'text/event-stream', Authorization: `Bearer ${host!.token}` }
          },
          (res) => {
            let text = ''
            let emitted = false
            res.setEncoding('utf8')
            res.on('data', (chunk: string) => {
              text += chunk
              if (!emitted && text.includes(': connected')) {
                emitted = true
                core.emit('sessionsChanged', { at: '2025-03-10T09:00:00.000Z', liveCount: 3, storedCount: 9 })
              }
              if (text.includes('event: sessionsChanged') && /data: .*\n\n/.test(text)) {
                resolve({ text, headers: res.headers, close: () => req.destroy() })
              }
            })
          }
        )
        req.on('error', reject)
        req.end()
      }
    )
    expect(received.headers['content-type']).toMatch(/^text\/event-stream/)
    const block = received.text.split('\n\n').find((b) => b.includes('event: sessionsChanged'))!
    const lines = block.split('\n')
    expect(lines[0]).toBe('event: sessionsChanged')
    expect(lines[1]?.startsWith('data: ')).toBe(true)
    expect(JSON.parse(lines[1]!.slice('data: '.length))).toEqual({
      at: '2025-03-10T09:00:00.000Z',
      liveCount: 3,
      storedCount: 9
    })

    expect(core.listeners.size).toBe(1)
    received.close()
    await vi.waitFor(() => expect(core.listeners.size).toBe(0))
  })

  it('stops serving after close()', async () => {
    const url = host!.url
    await host!.close()
    host = null
    await expect(fetch(url)).rejects.toThrow()
  })
})
