// The demo simulator: the whole reporting API on 127.0.0.1 — token endpoint, the three GET
// endpoints with cursor pagination, bearer-token and platform/tenant header checks.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeCursor, encodeCursor } from './cursor'
import { sessionRecord } from './records'
import { viewerRecord } from './viewers'
import { World, type SimSession, type WorldOptions } from './world'
import { BodyTooLargeError, readBody } from '../net/read-body'

export interface SimulatorCredentials {
  clientId: string
  clientSecret: string
  platformId: string
  tenantId: string
}

/** Published demo credentials: they open only the simulator, never a real service. */
export const DEMO_CREDENTIALS: SimulatorCredentials = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  platformId: 'demo-platform',
  tenantId: 'demo-tenant'
}

export interface SimulatorOptions extends Partial<Omit<WorldOptions, 'platformId' | 'tenantId'>> {
  port?: number
  credentials?: SimulatorCredentials
  sessionsPageSize?: number
  viewersPageSize?: number
  tokenLifetimeSeconds?: number
  /** Injectable clock (ms since epoch) so tests control time. */
  clock?: () => number
}

export interface RunningSimulator {
  baseUrl: string
  authUrl: string
  credentials: SimulatorCredentials
  world: World
  close(): Promise<void>
}

const MAX_TOKENS = 10_000

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? Date.now
  const credentials = options.credentials ?? DEMO_CREDENTIALS
  const world = new World(
    {
      seed: options.seed ?? 42,
      platformId: credentials.platformId,
      tenantId: credentials.tenantId,
      liveSessions: options.liveSessions ?? 6,
      endedSessions: options.endedSessions ?? 14,
      viewersPerSession: options.viewersPerSession ?? 1500,
      churnSessions: options.churnSessions ?? true
    },
    clock()
  )
  const sessionsPageSize = options.sessionsPageSize ?? 20
  const viewersPageSize = options.viewersPageSize ?? 500
  const tokenLifetime = options.tokenLifetimeSeconds ?? 10_800
  const tokens = new Map<string, number>()

  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendJson(res, 500, { error: 'internal_error' }))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid')
    if (url.pathname === '/v2/auth/token') return issueToken(req, res)
    if (!url.pathname.startsWith('/v1/')) return sendJson(res, 404, { error: 'not_found' })
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'method_not_allowed' })
    if (!authorised(req)) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"')
      return sendJson(res, 401, { error: 'invalid_token', message: 'Missing, invalid or expired bearer token.' })
    }
    const platformId = header(req, 'platform-id')
    const tenantId = header(req, 'tenant-id')
    if (!platformId || !tenantId) {
      return sendJson(res, 400, { error: 'missing_header', message: 'platform-id and tenant-id headers are required.' })
    }
    if (platformId !== credentials.platformId || tenantId !== credentials.tenantId) {
      return sendJson(res, 403, { error: 'forbidden', message: 'This client may not read that platform/tenant.' })
    }
    world.advanceTo(clock())
    const parts = url.pathname.split('/').filter(Boolean) // v1, events, sessions, id?, viewers?
    if (parts[1] !== 'events' || parts[2] !== 'sessions' || parts.length > 5) {
      return sendJson(res, 404, { error: 'not_found' })
    }
    if (parts.length === 3) return listSessions(url, res)
    const session = world.find(decodeURIComponent(parts[3] ?? ''))
    if (!session) return sendJson(res, 404, { error: 'not_found', message: 'Unknown event session.' })
    if (parts.length === 4) return sendJson(res, 200, record(session))
    if (parts[4] === 'viewers') return listViewers(session, url, res)
    return sendJson(res, 404, { error: 'not_found' })
  }

  async function issueToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed' })
    let body: unknown
    try {
      body = JSON.parse(await readBody(req, 64 * 1024))
    } catch (error) {
      if (error instanceof BodyTooLargeError) return sendJson(res, 413, { error: 'request_too_large' })
      return sendJson(res, 400, { error: 'invalid_request', message: 'Body must be JSON.' })
    }
    const b = (body ?? {}) as Record<string, unknown>
    if (b.grant_type !== 'client_credentials') {
      return sendJson(res, 400, { error: 'unsupported_grant_type' })
    }
    if (b.client_id !== credentials.clientId || b.client_secret !== credentials.clientSecret) {
      return sendJson(res, 401, { error: 'invalid_client', message: 'Unknown client or wrong secret.' })
    }
    const token = randomBytes(24).toString('base64url')
    if (tokens.size >= MAX_TOKENS) tokens.clear()
    tokens.set(token, clock() + tokenLifetime * 1000)
    sendJson(res, 200, { token_type: 'bearer', expires_in: tokenLifetime, access_token: token })
  }

  function authorised(req: IncomingMessage): boolean {
    const match = /^Bearer (\S+)$/i.exec(header(req, 'authorization') ?? '')
    const expiresAt = match?.[1] ? tokens.get(match[1]) : undefined
    return expiresAt !== undefined && expiresAt > clock()
  }

  function record(s: SimSession): Record<string, unknown> {
    return sessionRecord(s, credentials.platformId, credentials.tenantId)
  }

  function listSessions(url: URL, res: ServerResponse): void {
    const q = url.searchParams
    const from = dateParam(q.get('startedAtFrom'))
    const to = dateParam(q.get('startedAtTo'))
    const endedFrom = dateParam(q.get('endedAtFrom'))
    const endedTo = dateParam(q.get('endedAtTo'))
    if ([from, to, endedFrom, endedTo].some((d) => d === 'invalid')) {
      return sendJson(res, 400, { error: 'invalid_parameter', message: 'Date filters must be ISO 8601 date-times.' })
    }
    const after = q.get('cursor') ? decodeCursor(q.get('cursor') ?? '') : []
    if (after === null) return sendJson(res, 400, { error: 'invalid_cursor' })
    const [afterStart, afterId] = after as [number?, string?]
    const matching = world.sessions.filter((s) => {
      if (typeof from === 'number' && s.startedAt < from) return false
      if (typeof to === 'number' && s.startedAt > to) return false
      if (typeof endedFrom === 'number' && (!s.hasEnded || s.endsAt < endedFrom)) return false
      if (typeof endedTo === 'number' && (!s.hasEnded || s.endsAt > endedTo)) return false
      if (afterStart === undefined || afterId === undefined) return true
      return s.startedAt > afterStart || (s.startedAt === afterStart && s.eventSessionId > afterId)
    })
    const page = matching.slice(0, sessionsPageSize)
    const last = page[page.length - 1]
    const more = matching.length > page.length && last !== undefined
    sendJson(res, 200, {
      data: page.map(record),
      ...(more ? { pagination: { nextCursor: encodeCursor([last.startedAt, last.eventSessionId]) } } : {})
    })
  }

  function listViewers(s: SimSession, url: URL, res: ServerResponse): void {
    const cursor = url.searchParams.get('cursor')
    const after = cursor ? decodeCursor(cursor) : [-1]
    const afterSeq = after?.[0]
    if (typeof afterSeq !== 'number') return sendJson(res, 400, { error: 'invalid_cursor' })
    const now = world.time
    const page = s.viewers.slice(afterSeq + 1, afterSeq + 1 + viewersPageSize)
    const last = page[page.length - 1]
    const more = last !== undefined && last.seq < s.viewers.length - 1
    sendJson(res, 200, {
      eventSessionId: s.eventSessionId,
      startedAt: new Date(s.startedAt).toISOString(),
      updatedAt: new Date(s.updatedAt).toISOString(),
      data: page.map((v) => viewerRecord(v, now, s.reliability)),
      ...(more ? { pagination: { nextCursor: encodeCursor([last.seq]) } } : {})
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    baseUrl: origin,
    authUrl: origin,
    credentials,
    world,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function dateParam(value: string | null): number | undefined | 'invalid' {
  if (value === null || value === '') return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) ? 'invalid' : time
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}
