// The browser host: the built renderer and the app API over HTTP. By default on 127.0.0.1 for the
// machine's own administrator (a per-launch token, local-gate.ts); as a team server (`--listen`)
// on any address, over HTTPS beyond loopback, for the team's users (team-gate.ts).
// Requests: POST /api/request/<name> with JSON args -> a Result. Pushes: GET /api/events (SSE).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp'
import { fail } from '../../shared/result'
import type { AppCore } from '../core/app/types'
import { BodyTooLargeError, readBody } from '../core/net/read-body'
import { createAccessToken } from './access'
import { openEventStream } from './event-stream'
import { EXPOSITION_CONTENT_TYPE, exposition } from './exposition'
import type { Admitted, Gate } from './gate'
import { GuessLimiter } from './guess-limiter'
import { localGate } from './local-gate'
import { sendJson, sendText } from './respond'
import { answerProbe, probeOf } from './probes'
import { readStaticFile } from './static-files'
import { teamGate } from './team-gate'
import { certificateNames, isLoopbackHost, teamHosts } from './team-hosts'

export interface TeamServerOptions {
  /** The address to listen on: a host name or IP (0.0.0.0 for every interface). */
  host: string
  /** PEM certificate and key: required beyond loopback. */
  tls?: { cert: string; key: string }
}

export interface WebHostOptions {
  core: AppCore
  /** Directory of the built renderer (index.html and assets). */
  rendererDir: string
  port?: number
  /** Serve the team (its users, their roles) instead of this machine's administrator alone. */
  team?: TeamServerOptions
  /** How often an open event stream gets a heartbeat, and its user is checked again (15 s). */
  heartbeatMs?: number
}

export interface WebHost {
  /** The address to open: the local host's carries this launch's token (…/?token=…); a team
   *  server's is its own origin (its users sign in). */
  url: string
  /** The host's own origin, e.g. http://127.0.0.1:4780 */
  origin: string
  /** The per-launch token of the local host, also accepted as `Authorization: Bearer <token>`;
   *  empty on a team server (its users' tokens get in instead). */
  token: string
  /** Where the socket is actually bound, as the server reports it. */
  address: AddressInfo
  close(): Promise<void>
}

export class TeamServerConfigError extends Error {}

const MAX_REQUEST_BYTES = 1024 * 1024
const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // For browsers that predate CSP frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin'
}
/** HTTPS only: a browser that has seen the server once never tries it over plain HTTP for a year
 *  (no includeSubDomains: the names below the server's are not Eventwatch's to decide). */
const STRICT_TRANSPORT = 'max-age=31536000'

/** Refuses what would put the team's tokens on the network in clear, or a certificate that cannot
 *  serve, before anything listens (the CLI asks before it starts polling, too). */
export function checkTeamServerOptions(team: TeamServerOptions): void {
  if (!team.tls && !isLoopbackHost(team.host)) {
    throw new TeamServerConfigError(
      `refusing to listen on ${team.host} without TLS: the team's tokens would cross the network in clear. ` +
        'Give a certificate and its key (--tls-cert FILE --tls-key FILE), or listen on 127.0.0.1.'
    )
  }
  if (!team.tls) return
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(team.tls.cert)
  } catch {
    throw new TeamServerConfigError('the TLS certificate is not a PEM certificate.')
  }
  let key
  try {
    key = createPrivateKey(team.tls.key)
  } catch {
    throw new TeamServerConfigError('the TLS private key is not a PEM private key (an encrypted key is not supported).')
  }
  if (!certificate.checkPrivateKey(key)) throw new TeamServerConfigError('the TLS private key does not belong to the certificate.')
  if (Date.parse(certificate.validTo) < Date.now()) throw new TeamServerConfigError(`the TLS certificate expired on ${certificate.validTo}.`)
}

/** The Host values a team server answers to (its listening host, or its certificate's names). */
const hostsOf = (team: TeamServerOptions | undefined, port: number): string[] =>
  team ? teamHosts(team.host, port, team.tls ? certificateNames(team.tls.cert) : [], Boolean(team.tls)) : []

/**
 * The address the host is reached at on `port`: a team server's first host (its listening host,
 * or on all interfaces its certificate's first name), https with TLS; locally 127.0.0.1. `serve`
 * links alerts here unless --public-url says otherwise (known before it listens, on a chosen port).
 */
export function hostOrigin(team: TeamServerOptions | undefined, port: number): string {
  return team ? `${team.tls ? 'https' : 'http'}://${hostsOf(team, port)[0]}` : `http://127.0.0.1:${port}`
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { team } = options
  if (team) {
    checkTeamServerOptions(team)
    if (!options.core.users) throw new TeamServerConfigError('this core has no users: a team server must own its cache.')
  }
  let port = 0
  const token = team ? '' : createAccessToken()
  let gate: Gate = localGate(token, () => port)

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
    if (team?.tls) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT)
    // Node keeps the first Host and drops the rest; a proxy in front may have routed by another
    // one, so the request is ambiguous and refused (RFC 9112, section 3.2).
    if ((req.headersDistinct.host?.length ?? 0) > 1) {
      req.resume()
      return sendText(res, 400, 'Eventwatch: more than one Host header.\n')
    }
    // A load balancer's health checks, answered to anyone (probes.ts): nothing else passes the gate.
    const probe = probeOf(req)
    const answering = probe
      ? answerProbe(options.core, probe, req, res)
      : gate.admit(req, res).then((admitted) => (admitted ? route(options, admitted, req, res) : undefined))
    answering.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, fail('internal', error instanceof Error ? error.message : 'internal error'))
      else res.end()
    })
  }
  const server: Server = team?.tls ? createHttpsServer({ cert: team.tls.cert, key: team.tls.key }, handle) : createServer(handle)
  const listenHost = team?.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, listenHost, () => resolve())
  })
  const address = server.address() as AddressInfo
  port = address.port
  const secure = Boolean(team?.tls)
  const hosts = hostsOf(team, port)
  if (team) gate = teamGate({ users: options.core.users!, hosts, secure, port, limiter: new GuessLimiter() })
  const origin = hostOrigin(team, port)
  return {
    url: team ? `${origin}/` : `${origin}/?token=${token}`,
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

async function route(options: WebHostOptions, admitted: Admitted, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { url, context } = admitted
  if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(options.core, res, admitted.stillValid, options.heartbeatMs, context)
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
    // Results travel as 200 with { ok }: the error is data, as over IPC. The role is checked by
    // the core's dispatch, the same for every face.
    return sendJson(res, 200, await options.core.dispatch(name, args, context))
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, fail('method-not-allowed', 'Use GET.'))
  // Any signed-in user (the loopback host: its token): the figures of this process.
  if (url.pathname === '/metrics') {
    if (!options.core.observe) return sendJson(res, 404, fail('not-found', 'This server keeps no metrics.'))
    const text = exposition(await options.core.observe.metrics())
    res.writeHead(200, { 'Content-Type': EXPOSITION_CONTENT_TYPE, 'Cache-Control': 'no-store' })
    res.end(req.method === 'HEAD' ? undefined : text)
    return
  }
  const file = await readStaticFile(options.rendererDir, url.pathname)
  if (!file) return sendJson(res, 404, fail('not-found', 'Not found.'))
  res.writeHead(200, { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache' })
  res.end(req.method === 'HEAD' ? undefined : file.body)
}
