// Who may talk to the browser host, as one pure decision per request. Only a page opened from
// the address `eventwatch serve` printed (it carries a per-launch token) gets in; anything on
// another Host (DNS rebinding), from another Origin or from another site is refused.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const TOKEN_PARAM = 'token'

export interface AccessRequest {
  method: string
  /** The request target as sent, e.g. "/api/events" or "/?token=…". */
  target: string
  headers: {
    host?: string | undefined
    origin?: string | undefined
    'sec-fetch-site'?: string | undefined
    cookie?: string | undefined
    authorization?: string | undefined
  }
}

export interface AccessPolicy {
  token: string
  port: number
}

export type AccessDecision =
  /** Let it through to the routes; `url` is the parsed target (its host is meaningless). */
  | { kind: 'allow'; url: URL }
  /** The printed address: set the cookie and send the page to "/" (never anywhere else). */
  | { kind: 'enter'; location: '/'; cookie: string }
  | { kind: 'refuse'; status: number; code: string; message: string; api: boolean }

export const ACCESS_HELP =
  'Open the address `eventwatch serve` printed (it changes on every launch).'

export function createAccessToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Constant-time comparison; hashing first makes the lengths equal without revealing them. */
export function tokensMatch(expected: string, given: string | undefined): boolean {
  if (given === undefined || expected === '') return false
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()
  return timingSafeEqual(digest(expected), digest(given))
}

/** Cookies are not scoped by port, so two hosts on one machine need two names. */
export const cookieName = (port: number): string => `eventwatch-${port}`

export const sessionCookie = (port: number, token: string): string =>
  `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`

/** Every value of the cookie `name` in a Cookie header (a browser may send the name twice). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return []
  const values: string[] = []
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=')
    if (at > 0 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim())
  }
  return values
}

export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1]
}

export const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`]
export const ownOrigins = (port: number): string[] => ownHosts(port).map((host) => `http://${host}`)

export function decideAccess(request: AccessRequest, policy: AccessPolicy): AccessDecision {
  // Origin-form only ("/path?query"): an absolute or "*" target has no business here.
  if (!request.target.startsWith('/')) return refuse(400, 'bad-request', 'Malformed request target.', false)
  // Concatenation, not resolution: "//evil.example/x" must stay a path, not become a host.
  let url: URL
  try {
    url = new URL(`http://host.invalid${request.target}`)
  } catch {
    return refuse(400, 'bad-request', 'Malformed request target.', false)
  }
  // A script's routes (the app API, /metrics) are refused in so many words, never sent to sign in.
  const api = url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname === '/metrics'
  const { headers } = request

  if (!ownHosts(policy.port).includes(headers.host ?? '')) {
    return refuse(421, 'wrong-host', 'Unexpected Host header.', api)
  }
  if (headers.origin !== undefined && !ownOrigins(policy.port).includes(headers.origin)) {
    return refuse(403, 'foreign-origin', 'Requests from other origins are refused.', api)
  }
  const site = headers['sec-fetch-site']
  if (api && (site === 'cross-site' || site === 'same-site')) {
    return refuse(403, 'cross-site', 'Requests from other sites are refused.', api)
  }

  const offered = url.searchParams.getAll(TOKEN_PARAM)
  if (!api && offered.length > 0 && (request.method === 'GET' || request.method === 'HEAD')) {
    if (offered.some((token) => tokensMatch(policy.token, token))) {
      return { kind: 'enter', location: '/', cookie: sessionCookie(policy.port, policy.token) }
    }
    return refuse(401, 'unauthorized', `This address is not valid for this launch of Eventwatch. ${ACCESS_HELP}`, api)
  }

  const presented = [...cookieValues(headers.cookie, cookieName(policy.port)), bearerToken(headers.authorization)]
  if (presented.some((token) => tokensMatch(policy.token, token))) return { kind: 'allow', url }
  return refuse(401, 'unauthorized', `This page needs the access token of this launch. ${ACCESS_HELP}`, api)
}

function refuse(status: number, code: string, message: string, api: boolean): AccessDecision {
  return { kind: 'refuse', status, code, message, api }
}
