// The browser host: the built renderer and the app API on 127.0.0.1 only.
// Requests: POST /api/request/<name> with JSON args -> a Result. Pushes: GET /api/events (SSE).
// Every request passes the access rules (access.ts) first: the per-launch token, Host, Origin.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp'
import { fail } from '../../shared/result'
import type { AppCore } from '../core/app/types'
import { openEventStream } from './event-stream'
import { readStaticFile } from './static-files'
import { BodyTooLargeError, readBody } from '../core/net/read-body'
import { createAccessToken, decideAccess } from './access'

export interface WebHostOptions {
  core: AppCore
  /** Directory of the built renderer (index.html and assets). */
  rendererDir: string
  port?: number
}

export interface WebHost {
  /** The address to open: the origin with this launch's token, e.g. http://127.0.0.1:4780/?token=… */
  url: string
  /** The host's own origin, e.g. http://127.0.0.1:4780 */
  origin: string
  /** The per-launch token, also accepted as `Authorization: Bearer <token>` (scripts, tests). */
  token: string
  /** Where the socket is actually bound, as the server reports it (127.0.0.1 only). */
  address: AddressInfo
  close(): Promise<void>
}

const MAX_REQUEST_BYTES = 1024 * 1024
const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // For browsers that predate CSP frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin'
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = createAccessToken()
  let port = 0
  const server: Server = createServer((req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
    const decision = decideAccess(
      {
        method: req.method ?? 'GET',
        target: req.url ?? '',
        headers: {
          host: req.headers.host,
          origin: req.headers.origin,
          'sec-fetch-site': header(req, 'sec-fetch-site'),
          cookie: req.headers.cookie,
          authorization: req.headers.authorization
        }
      },
      { token, port }
    )
    if (decision.kind === 'refuse') {
      req.resume() // an unread body would hold the connection
      if (decision.api) return sendJson(res, decision.status, fail(decision.code, decision.message))
      return sendText(res, decision.status, `Eventwatch: ${decision.message}\n`)
    }
    if (decision.kind === 'enter') {
      req.resume()
      res.writeHead(303, { Location: decision.location, 'Set-Cookie': decision.cookie, 'Cache-Control': 'no-store' })
      return void res.end()
    }
    route(options, decision.url, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, fail('internal', error instanceof Error ? error.message : 'internal error'))
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  port = address.port
  const origin = `http://127.0.0.1:${port}`
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

async function route(options: WebHostOptions, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(options.core, res)
  if (url.pathname.startsWith('/api/request/')) {
    if (req.method !== 'POST') return sendJson(res, 405, fail('method-not-allowed', 'Use POST.'))
    let name: string
    try {
      name = decodeURIComponent(url.pathname.slice('/api/request/'.length))
    } catch {
      return sendJson(res, 400, fail('unknown-request', 'Malformed request name.'))
    }
    let args: unknown
    try {
      const text = await readBody(req, MAX_REQUEST_BYTES)
      args = text ? JSON.parse(text) : {}
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, fail('too-large', 'Request body too large.'))
      return sendJson(res, 400, fail('invalid-arguments', 'Request body must be JSON.'))
    }
    // Results travel as 200 with { ok }: the error is data, as over IPC.
    return sendJson(res, 200, await options.core.dispatch(name, args))
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, fail('method-not-allowed', 'Use GET.'))
  const file = await readStaticFile(options.rendererDir, url.pathname)
  if (!file) return sendJson(res, 404, fail('not-found', 'Not found.'))
  res.writeHead(200, { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' })
  res.end(req.method === 'HEAD' ? undefined : file.body)
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}
