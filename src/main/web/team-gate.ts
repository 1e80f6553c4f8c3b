// The team server's gate (issue 17): only its users get in — a browser signs in once with its
// token and carries an HttpOnly session cookie from then on; a script or a desktop app sends the
// token as a Bearer header. Host and Origin must be names the server answers to (team-hosts.ts),
// and sign-in attempts are rate-limited per client address.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestContext } from '../../shared/contract'
import { fail } from '../../shared/result'
import type { TeamDirectory } from '../core/app/types'
import { BodyTooLargeError, readBody } from '../core/net/read-body'
import { SESSION_LIFETIME_MS } from '../core/team/users'
import { bearerToken, cookieValues } from './access'
import type { Admitted, Gate } from './gate'
import { header, redirect, sendJson } from './respond'
import { SIGN_IN_POLICY, signInPage } from './sign-in-page'
import type { SignInLimiter } from './sign-in-limiter'

export interface TeamGateOptions {
  users: TeamDirectory
  /** Host header values accepted (team-hosts.ts). */
  hosts: string[]
  /** HTTPS: the cookie is Secure and __Host- prefixed. */
  secure: boolean
  port: number
  limiter: SignInLimiter
}

type UserRecord = NonNullable<Awaited<ReturnType<TeamDirectory['byToken']>>>

export function teamCookieName(secure: boolean, port: number): string {
  // __Host-: only over HTTPS, only for this host, path /, no Domain — no other site can set it.
  return secure ? '__Host-eventwatch' : `eventwatch-team-${port}`
}

export function teamGate(options: TeamGateOptions): Gate {
  const { users, hosts, secure, port, limiter } = options
  const scheme = secure ? 'https' : 'http'
  const origins = new Set(hosts.map((host) => `${scheme}://${host}`))
  const cookieName = teamCookieName(secure, port)
  const cookie = (value: string, maxAgeSeconds: number): string =>
    `${cookieName}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`

  const contextOf = (user: UserRecord): RequestContext => ({ actor: { name: user.name, role: user.role }, team: true })
  const address = (req: IncomingMessage): string => req.socket.remoteAddress ?? 'unknown'

  const refuse = (res: ServerResponse, api: boolean, status: number, code: string, message: string, headers: Record<string, string> = {}): null => {
    if (api) sendJson(res, status, fail(code, message), headers)
    else {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
      res.end(`Eventwatch: ${message}\n`)
    }
    return null
  }

  const page = (res: ServerResponse, status: number, message: string | null, headers: Record<string, string> = {}): null => {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': SIGN_IN_POLICY,
      // Under no-referrer a browser posts the form with "Origin: null", which the check above
      // refuses: this page alone tells its own origin (to itself only).
      'Referrer-Policy': 'same-origin',
      ...headers
    })
    res.end(signInPage(message))
    return null
  }

  const signIn = async (req: IncomingMessage, res: ServerResponse): Promise<null> => {
    const wait = limiter.waitSeconds(address(req))
    if (wait > 0) {
      req.resume()
      return page(res, 429, `Too many wrong tokens from this address: try again in ${Math.ceil(wait / 60)} min.`, { 'Retry-After': String(wait) })
    }
    let token: string | null
    try {
      token = new URLSearchParams(await readBody(req, 4096)).get('token')?.trim() || null
    } catch (error) {
      return page(res, error instanceof BodyTooLargeError ? 413 : 400, 'That sign-in form could not be read.')
    }
    const started = token ? await users.signIn(token) : null
    if (!started) {
      limiter.failed(address(req))
      return page(res, 401, 'That token is not valid: ask your administrator for yours (it may have been rotated).')
    }
    limiter.succeeded(address(req))
    redirect(res, '/', cookie(started.sessionId, Math.floor(SESSION_LIFETIME_MS / 1000)))
    return null
  }

  return {
    admit: async (req, res): Promise<Admitted | null> => {
      const target = req.url ?? ''
      let url: URL
      try {
        if (!target.startsWith('/')) throw new Error('not origin-form')
        url = new URL(`http://host.invalid${target}`)
      } catch {
        req.resume()
        return refuse(res, false, 400, 'bad-request', 'Malformed request target.')
      }
      const api = url.pathname === '/api' || url.pathname.startsWith('/api/')
      const method = req.method ?? 'GET'
      if (!hosts.includes((req.headers.host ?? '').toLowerCase())) {
        req.resume()
        return refuse(res, api, 421, 'wrong-host', 'Unexpected Host header: use the address the server was set up with.')
      }
      const origin = req.headers.origin
      const site = header(req, 'sec-fetch-site')
      const unsafe = method !== 'GET' && method !== 'HEAD'
      if ((origin !== undefined && !origins.has(origin)) || ((api || unsafe) && (site === 'cross-site' || site === 'same-site'))) {
        req.resume()
        return refuse(res, api, 403, 'foreign-origin', 'Requests from other sites are refused.')
      }

      if (url.pathname === '/signin') {
        if (method === 'POST') return signIn(req, res)
        req.resume()
        return page(res, 200, null)
      }
      const sessions = cookieValues(req.headers.cookie, cookieName)
      if (url.pathname === '/signout' && method === 'POST') {
        req.resume()
        for (const id of sessions) await users.signOut(id)
        redirect(res, '/signin', cookie('', 0))
        return null
      }

      const token = bearerToken(req.headers.authorization)
      let user: UserRecord | null = null
      let check: () => Promise<boolean> = async () => false
      if (token !== undefined) {
        const wait = limiter.waitSeconds(address(req))
        if (wait > 0) {
          req.resume()
          return refuse(res, api, 429, 'too-many-attempts', 'Too many wrong tokens from this address; wait and try again.', { 'Retry-After': String(wait) })
        }
        user = await users.byToken(token)
        if (!user) limiter.failed(address(req))
        check = async () => (await users.byToken(token)) !== null
      } else {
        for (const id of sessions) {
          user = await users.bySession(id)
          if (user) {
            check = async () => (await users.bySession(id)) !== null
            break
          }
        }
      }
      if (user) return { url, context: contextOf(user), stillValid: check }
      req.resume()
      if (!api && (method === 'GET' || method === 'HEAD')) {
        redirect(res, '/signin')
        return null
      }
      return refuse(res, api, 401, 'unauthorized', 'Sign in with your access token first (eventwatch users add printed it).')
    }
  }
}
