// The demo simulator: the whole reporting API on 127.0.0.1 — token endpoint, the three GET
// endpoints with cursor pagination, bearer-token and platform/tenant header checks — plus
// switchable faults (`faults`) and request counts (`stats`) for the client's tests.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeCursor, encodeCursor } from './cursor'
import { driftSession, driftViewer } from './drift'
import { SimulatorFaults } from './faults'
import { sessionRecord, type SimulatedScale } from './records'
import { sendFailure, sendJson } from './respond'
import { ENDPOINTS, SimulatorStats } from './stats'
import { crowdPage } from './crowd'
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
  /** After this many ms, the first live session's reliability drops (default 25 points for 10 minutes). */
  incident?: { afterMs: number; drop?: number; minutes?: number }
  /** The scale reliabilityScore is reported on, sessions and viewers alike (default 0–100). */
  reliabilityScale?: SimulatedScale
  /** One more live session with this many viewers, made when listed (crowd.ts): lists of millions. */
  crowd?: { viewers: number }
  /** Ids given to the first sessions (in start order) instead of theirs: ".", "..", "=1+1", … */
  sessionIds?: readonly string[]
}

export interface RunningSimulator {
  baseUrl: string
  authUrl: string
  credentials: SimulatorCredentials
  world: World
  /** Switch fault modes at run time. */
  faults: SimulatorFaults
  /** Requests seen per endpoint, and the last ones' headers and query. */
  stats: SimulatorStats
  /** Every access token issued so far (bounded), so tests can look for them where they must not be. */
  issuedTokens(): string[]
  close(): Promise<void>
}

const MAX_TOKENS = 10_000

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? Date.now
  const scale = options.reliabilityScale ?? '0-100'
  const credentials = options.credentials ?? DEMO_CREDENTIALS
  const world = new World(
    {
      seed: options.seed ?? 42,
      platformId: credentials.platformId,
      tenantId: credentials.tenantId,
      liveSessions: options.liveSessions ?? 6,
      endedSessions: options.endedSessions ?? 14,
      viewersPerSession: options.viewersPerSession ?? 1500,
      churnSessions: options.churnSessions ?? true,
      randomIncidents: options.randomIncidents ?? true,
      ...(options.incident
        ? {
            scheduledIncident: {
              at: clock() + options.incident.afterMs,
              drop: options.incident.drop ?? 25,
              minutes: options.incident.minutes ?? 10
            }
          }
        : {})
    },
    clock()
  )
  if (options.crowd) world.addCrowdSession(options.crowd.viewers)
  options.sessionIds?.forEach((id, index) => world.renameSession(index, id))
  const seed = options.seed ?? 42
  const sessionsPageSize = options.sessionsPageSize ?? 20
  const viewersPageSize = options.viewersPageSize ?? 500
  const tokenLifetime = options.tokenLifetimeSeconds ?? 10_800
  const tokens = new Map<string, number>()
  const issued: string[] = []
  const faults = new SimulatorFaults({
    revokeTokens: () => tokens.clear(),
    // The world catches up to now first, so the incident starts now, not when last observed.
    incident: (id, incident) => {
      world.advanceTo(clock())
      world.incident(id, incident)
    },
    recover: (id) => {
      world.advanceTo(clock())
      world.recover(id)
    },
    siteIncident: (id, siteCode, options) => {
      world.advanceTo(clock())
      world.siteIncident(id, siteCode, options)
    }
  })
  const stats = new SimulatorStats()
  const stalls = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendJson(res, 500, { error: 'internal_error' }))
  })

  /** A successful data answer, spoiled if a fault mode says so (`laterPage`: asked with a cursor). */
  const ok = (res: ServerResponse, body: unknown, laterPage = false): void => sendJson(res, 200, body, faults.takeMangle(laterPage))
  // Numeric cursors (a fault mode): each cursor handed out as a number, looked up when it comes back.
  const numbered = new Map<string, string>()
  const cursorOut = (cursor: string | undefined): string | number | undefined => {
    if (cursor === undefined || !faults.numericCursors) return cursor
    const number = numbered.size + 1
    numbered.set(String(number), cursor)
    return number
  }
  const cursorIn = (cursor: string | null): string | null => (cursor === null ? null : (numbered.get(cursor) ?? cursor))

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid')
    const seen = stats.record({
      endpoint: endpointOf(req.method, url.pathname),
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      headers: flatHeaders(req)
    })
    res.on('finish', () => {
      seen.status = res.statusCode
    })
    if (url.pathname === '/v2/auth/token') return issueToken(req, res)
    if (!url.pathname.startsWith('/v1/')) return sendJson(res, 404, { error: 'not_found' })
    const delay = faults.takeDelay()
    if (delay > 0) {
      await stall(delay)
      if (res.destroyed) return // the client timed out and went away
    }
    const failure = faults.takeFailure()
    if (failure) return sendFailure(res, failure, clock())
    if (faults.takeEcho()) {
      const token = (header(req, 'authorization') ?? '').replace(/^Bearer\s+/i, '')
      return sendJson(res, 400, { error: 'bad_request', message: `client secret ${credentials.clientSecret} and token=${token} are not welcome here` })
    }
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
    if (parts.length === 4) return ok(res, faults.schemaDrift ? driftSession(record(session), 0, true) : record(session))
    if (parts[4] === 'viewers') return listViewers(session, url, res)
    return sendJson(res, 404, { error: 'not_found' })
  }

  // Last pages of viewer lists held back, by session (a fault mode): answered together.
  const gathering = new Map<string, (() => void)[]>()
  function gathered(eventSessionId: string, together: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = [...(gathering.get(eventSessionId) ?? []), resolve]
      if (waiting.length < together) return void gathering.set(eventSessionId, waiting)
      gathering.delete(eventSessionId)
      for (const release of waiting) release()
    })
  }
  function releaseGathered(): void {
    for (const waiting of gathering.values()) for (const release of waiting) release()
    gathering.clear()
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
    const lifetime = faults.tokenLifetimeSeconds ?? tokenLifetime
    if (tokens.size >= MAX_TOKENS) tokens.clear()
    tokens.set(token, clock() + lifetime * 1000)
    if (issued.length < MAX_TOKENS) issued.push(token)
    stats.tokensIssued++
    const said = faults.expiresInAnswer
    const expiresIn = said ? (said.value === undefined ? {} : { expires_in: said.value }) : { expires_in: lifetime }
    sendJson(res, 200, { token_type: 'bearer', ...expiresIn, access_token: token })
  }

  function authorised(req: IncomingMessage): boolean {
    const match = /^Bearer (\S+)$/i.exec(header(req, 'authorization') ?? '')
    const expiresAt = match?.[1] ? tokens.get(match[1]) : undefined
    return expiresAt !== undefined && expiresAt > clock()
  }

  function record(s: SimSession): Record<string, unknown> {
    return sessionRecord(s, credentials.platformId, credentials.tenantId, scale)
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
    const cursor = cursorIn(q.get('cursor'))
    const after = cursor ? decodeCursor(cursor) : []
    if (after === null) return sendJson(res, 400, { error: 'invalid_cursor' })
    const [afterStart, afterId] = after as [number?, string?]
    const matching = world.sessions.filter((s) => {
      if (typeof from === 'number' && s.startedAt < from) return false
      if (typeof to === 'number' && s.startedAt > to) return false
      if (typeof endedFrom === 'number' && (!s.hasEnded || s.endsAt < endedFrom)) return false
      if (typeof endedTo === 'number' && (!s.hasEnded || s.endsAt > endedTo)) return false
      if (afterStart === undefined || afterId === undefined) return true
      // Overlapping pages (a fault mode): the session the cursor names comes again.
      const again = faults.overlappingSessionPages && s.eventSessionId === afterId
      return s.startedAt > afterStart || (s.startedAt === afterStart && (s.eventSessionId > afterId || again))
    })
    const page = matching.slice(0, sessionsPageSize)
    const last = page[page.length - 1]
    const more = matching.length > page.length && last !== undefined
    let next = more ? encodeCursor([last.startedAt, last.eventSessionId]) : undefined
    // Repeating: the cursor asked with, else a valid one that starts over: never an end.
    if (faults.repeatingCursors) next = cursor || next || encodeCursor([-1, ''])
    ok(
      res,
      {
        data: page.map((s, i) => (faults.schemaDrift ? driftSession(record(s), i) : record(s))),
        ...(next ? { pagination: { nextCursor: cursorOut(next) } } : {})
      },
      Boolean(cursor)
    )
  }

  async function listViewers(s: SimSession, url: URL, res: ServerResponse): Promise<void> {
    const cursor = cursorIn(url.searchParams.get('cursor'))
    const after = cursor ? decodeCursor(cursor) : [-1]
    const afterSeq = after?.[0]
    if (typeof afterSeq !== 'number') return sendJson(res, 400, { error: 'invalid_cursor' })
    const now = world.time
    const total = s.crowd ?? s.viewers.length
    const page = s.crowd === undefined ? s.viewers.slice(afterSeq + 1, afterSeq + 1 + viewersPageSize) : crowdPage(seed, s, afterSeq, viewersPageSize)
    const last = page[page.length - 1]
    const more = last !== undefined && last.seq < total - 1
    let next = more ? encodeCursor([last.seq]) : undefined
    if (faults.repeatingCursors || (faults.repeatingViewerCursors && cursor)) next = cursor || next || encodeCursor([-1])
    const together = faults.lastViewerPagesTogether
    if (!more && together > 1) {
      await gathered(s.eventSessionId, together)
      if (res.destroyed) return // the client went away while held
    }
    ok(
      res,
      {
        eventSessionId: s.eventSessionId,
        startedAt: new Date(s.startedAt).toISOString(),
        updatedAt: new Date(s.updatedAt).toISOString(),
        data: page.map((v, i) => {
          const viewer = viewerRecord(v, now, world.viewerReliability(s, v.siteCode), scale)
          return faults.schemaDrift ? driftViewer(viewer, i) : viewer
        }),
        ...(next ? { pagination: { nextCursor: cursorOut(next) } } : {})
      },
      Boolean(cursor)
    )
  }

  /** Holds a slow answer back; close() drops the held ones. */
  function stall(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        stalls.delete(timer)
        resolve()
      }, ms)
      stalls.add(timer)
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
    faults,
    stats,
    issuedTokens: () => [...issued],
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of stalls) clearTimeout(timer)
        stalls.clear()
        releaseGathered()
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

function endpointOf(method: string | undefined, path: string): string {
  if (path === '/v2/auth/token') return ENDPOINTS.token
  if (method !== 'GET') return ENDPOINTS.other
  const parts = path.split('/').filter(Boolean)
  if (parts[0] !== 'v1' || parts[1] !== 'events' || parts[2] !== 'sessions') return ENDPOINTS.other
  if (parts.length === 3) return ENDPOINTS.sessions
  if (parts.length === 4) return ENDPOINTS.session
  if (parts.length === 5 && parts[4] === 'viewers') return ENDPOINTS.viewers
  return ENDPOINTS.other
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(req.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}
