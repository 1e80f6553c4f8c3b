// The team server's gate (issue 17): only its users get in — a browser signs in once with its
// token and carries an HttpOnly session cookie from then on; a script or a desktop app sends the
// token as a Bearer header. Host and Origin must be names the server answers to (team-hosts.ts).
// A right token or session is let in at once; a wrong one is a guess, counted per client network
// and overall (guess-limiter.ts), and answered with 429 once there have been too many.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestContext } from '../../shared/contract'
import { fail } from '../../shared/result'
import type { TeamDirectory } from '../core/app/types'
import { BodyTooLargeError, readBody } from '../core/net/read-body'
import { SESSION_LIFETIME_MS } from '../core/team/users'
import { bearerToken, cookieValues } from './access'
import type { Admitted, Gate } from './gate'
import type { GuessLimiter, GuessRefusal } from './guess-limiter'
import { header, redirect, sendJson } from './respond'
import { SIGN_IN_POLICY, signInPage } from './sign-in-page'

export interface TeamGateOptions {
  users: TeamDirectory
  /** Host header values accepted (team-hosts.ts). */
  hosts: string[]
  /** HTTPS: the cookie is Secure and __Host- prefixed. */
  secure: boolean
  port: number
  limiter: GuessLimiter
}

type UserRecord = NonNullable<Awaited<ReturnType<TeamDirectory['byToken']>>>

/** A browser holds one session cookie per server (two at most, briefly): more values in one
 *  request would be guesses in bulk. */
const MAX_SESSION_COOKIES = 2

const tooManyGuesses = (refusal: GuessRefusal): string =>
  refusal.scope === 'address'
    ? `Too many wrong tokens from this address: the next one is answered in ${refusal.waitSeconds} s. A right token still gets in.`
    : `Too many wrong tokens reached this server lately, from many addresses: the next one is answered in ${refusal.waitSeconds} s. A right token still gets in.`

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
    let token: string | null
    try {
      token = new URLSearchParams(await readBody(req, 4096)).get('token')?.trim() || null
    } catch (error) {
      return page(res, error instanceof BodyTooLargeError ? 413 : 400, 'That sign-in form could not be read.')
    }
    if (!token) return page(res, 400, 'Enter your access token (eventwatch users add printed it).')
    // The token is checked before any count: a right one signs in even while this address waits.
    const started = await users.signIn(token)
    if (started) {
      redirect(res, '/', cookie(started.sessionId, Math.floor(SESSION_LIFETIME_MS / 1000)))
      return null
    }
    const refusal = limiter.wrongGuess(req.socket.remoteAddress)
    if (refusal) return page(res, 429, tooManyGuesses(refusal), { 'Retry-After': String(refusal.waitSeconds) })
    return page(res, 401, 'That token is not valid: ask your administrator for yours (it may have been rotated).')
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
      // A script's routes (the app API, /metrics) are refused in so many words, never sent to sign in.
      const api = url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname === '/metrics'
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
      const sessions = cookieValues(req.headers.cookie, cookieName).slice(0, MAX_SESSION_COOKIES)
      if (url.pathname === '/signout' && method === 'POST') {
        req.resume()
        for (const id of sessions) await users.signOut(id)
        redirect(res, '/signin', cookie('', 0))
        return null
      }

      const token = bearerToken(req.headers.authorization)
      // Each credential is checked before any count, so a right one gets in even while its
      // address waits; each wrong one is a guess.
      const presented = token !== undefined ? [token] : sessions
      const lookUp = (credential: string): Promise<UserRecord | null> => (token !== undefined ? users.byToken(credential) : users.bySession(credential))
      for (const credential of presented) {
        const user = await lookUp(credential)
        if (user) return { url, context: contextOf(user), stillValid: async () => (await lookUp(credential)) !== null }
      }
      req.resume()
      let refusal: GuessRefusal | null = null
      for (let i = 0; i < presented.length && !refusal; i++) refusal = limiter.wrongGuess(req.socket.remoteAddress)
      // A session that ended (expired, signed out, its user's token rotated) is dropped from the
      // browser, so a desk presents it once rather than on every request as a guess.
      const clearing = token === undefined && sessions.length > 0 ? cookie('', 0) : undefined
      const clear: Record<string, string> = clearing ? { 'Set-Cookie': clearing } : {}
      if (refusal) return refuse(res, api, 429, 'too-many-attempts', tooManyGuesses(refusal), { 'Retry-After': String(refusal.waitSeconds), ...clear })
      if (!api && (method === 'GET' || method === 'HEAD')) {
        redirect(res, '/signin', clearing)
        return null
      }
      return refuse(res, api, 401, 'unauthorized', 'Sign in with your access token first (eventwatch users add printed it).', clear)
    }
  }
}
