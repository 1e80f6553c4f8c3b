// The browser host's access rules (src/main/web/access.ts), decided without a server.
import { describe, expect, it } from 'vitest'
import {
  bearerToken,
  cookieName,
  cookieValues,
  createAccessToken,
  decideAccess,
  tokensMatch,
  type AccessRequest
} from '../../src/main/web/access'

const PORT = 4780
const TOKEN = 'Zq3-token_value-0123456789abcdefghijklmnopqrst'
const policy = { token: TOKEN, port: PORT }
const HOST = `127.0.0.1:${PORT}`

function decide(target: string, headers: AccessRequest['headers'] = {}, method = 'GET') {
  return decideAccess({ method, target, headers: { host: HOST, ...headers } }, policy)
}

const withCookie = { cookie: `${cookieName(PORT)}=${TOKEN}` }

describe('access token', () => {
  it('is 32 random bytes in base64url, different on every call', () => {
    const a = createAccessToken()
    const b = createAccessToken()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a).not.toBe(b)
  })

  it('matches only itself, whatever the length offered', () => {
    expect(tokensMatch(TOKEN, TOKEN)).toBe(true)
    expect(tokensMatch(TOKEN, `${TOKEN}x`)).toBe(false)
    expect(tokensMatch(TOKEN, TOKEN.slice(0, -1))).toBe(false)
    expect(tokensMatch(TOKEN, '')).toBe(false)
    expect(tokensMatch(TOKEN, undefined)).toBe(false)
    expect(tokensMatch('', '')).toBe(false)
  })
})

describe('cookie and bearer parsing', () => {
  it('reads every value of the named cookie and nothing of similar names', () => {
    const header = `other=1; eventwatch-47800=nope; ${cookieName(PORT)}=a; x=${cookieName(PORT)}; ${cookieName(PORT)}=b`
    expect(cookieValues(header, cookieName(PORT))).toEqual(['a', 'b'])
    expect(cookieValues(undefined, cookieName(PORT))).toEqual([])
  })

  it('reads a Bearer token and nothing else', () => {
    expect(bearerToken(`Bearer ${TOKEN}`)).toBe(TOKEN)
    expect(bearerToken(`bearer ${TOKEN}`)).toBe(TOKEN)
    expect(bearerToken(`Basic ${TOKEN}`)).toBeUndefined()
    expect(bearerToken('Bearer a b')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
})

describe('decideAccess', () => {
  it('lets the printed address in by a cookie and a redirect to "/" only', () => {
    for (const target of [`/?token=${TOKEN}`, `/assets/x.js?token=${TOKEN}`, `//evil.example/?token=${TOKEN}`, `/?token=${TOKEN}&next=https://evil.example/`]) {
      expect(decide(target), target).toEqual({
        kind: 'enter',
        location: '/',
        cookie: `eventwatch-${PORT}=${TOKEN}; HttpOnly; SameSite=Strict; Path=/`
      })
    }
    expect(decide(`/?token=${TOKEN}`, {}, 'HEAD').kind).toBe('enter')
  })

  it('refuses a wrong token in the address with 401 and says what to open', () => {
    const decision = decide('/?token=wrong')
    expect(decision).toMatchObject({ kind: 'refuse', status: 401, code: 'unauthorized', api: false })
    expect(decision.kind === 'refuse' && decision.message).toMatch(/eventwatch serve.*every launch/)
  })

  it('does not take the token from an API address', () => {
    expect(decide(`/api/events?token=${TOKEN}`)).toMatchObject({ kind: 'refuse', status: 401, api: true })
    expect(decide(`/api/request/getStatus?token=${TOKEN}`, {}, 'POST')).toMatchObject({ kind: 'refuse', status: 401 })
  })

  it('refuses every path without a token, and with a wrong cookie or bearer', () => {
    for (const target of ['/', '/index.html', '/assets/app.js', '/api/events', '/api/request/getStatus']) {
      expect(decide(target), target).toMatchObject({ kind: 'refuse', status: 401, api: target.startsWith('/api/') })
      expect(decide(target, { cookie: `${cookieName(PORT)}=wrong` }).kind).toBe('refuse')
      expect(decide(target, { cookie: `${cookieName(PORT + 1)}=${TOKEN}` }).kind).toBe('refuse')
      expect(decide(target, { authorization: 'Bearer wrong' }).kind).toBe('refuse')
    }
  })

  it('allows with the cookie or the bearer token, and gives the parsed path', () => {
    const byCookie = decide('/api/events', withCookie)
    expect(byCookie.kind).toBe('allow')
    expect(byCookie.kind === 'allow' && byCookie.url.pathname).toBe('/api/events')
    expect(decide('/assets/app.js', { authorization: `Bearer ${TOKEN}` }).kind).toBe('allow')
    expect(decide('/api/request/getStatus', { ...withCookie, origin: `http://127.0.0.1:${PORT}`, 'sec-fetch-site': 'same-origin' }, 'POST').kind).toBe('allow')
  })

  it('keeps a path that looks like a host a path', () => {
    const decision = decide('//evil.example/api/events', withCookie)
    expect(decision.kind === 'allow' && decision.url.pathname).toBe('//evil.example/api/events')
  })

  it('refuses a foreign Host with 421 even with the token', () => {
    for (const host of ['evil.example', `evil.example:${PORT}`, '127.0.0.1', `127.0.0.1:${PORT + 1}`, '', undefined]) {
      expect(decideAccess({ method: 'GET', target: '/api/events', headers: { ...withCookie, host } }, policy)).toMatchObject({
        kind: 'refuse',
        status: 421,
        code: 'wrong-host'
      })
    }
    expect(decideAccess({ method: 'GET', target: '/', headers: { ...withCookie, host: `localhost:${PORT}` } }, policy).kind).toBe('allow')
  })

  it('refuses a foreign Origin with 403, including "null", even with the token', () => {
    for (const origin of ['https://evil.example', `http://evil.example:${PORT}`, 'null', `https://127.0.0.1:${PORT}`, `http://127.0.0.1:${PORT + 1}`]) {
      for (const target of ['/', '/api/request/getStatus', `/?token=${TOKEN}`]) {
        expect(decide(target, { ...withCookie, origin }), `${origin} ${target}`).toMatchObject({ kind: 'refuse', status: 403, code: 'foreign-origin' })
      }
    }
    expect(decide('/api/events', { ...withCookie, origin: `http://localhost:${PORT}` }).kind).toBe('allow')
  })

  it('refuses cross-site and same-site fetches of the API, not same-origin or typed ones', () => {
    for (const site of ['cross-site', 'same-site']) {
      expect(decide('/api/events', { ...withCookie, 'sec-fetch-site': site })).toMatchObject({ kind: 'refuse', status: 403, code: 'cross-site' })
    }
    for (const site of ['same-origin', 'none']) expect(decide('/api/events', { ...withCookie, 'sec-fetch-site': site }).kind).toBe('allow')
  })

  it('refuses a target that is not a path', () => {
    for (const target of ['http://evil.example/', '*', '']) {
      expect(decide(target, withCookie)).toMatchObject({ kind: 'refuse', status: 400 })
    }
  })
})
