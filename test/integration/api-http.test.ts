// requestJson (src/main/core/api/http.ts) over real loopback HTTP(S) against small servers that
// misbehave on purpose: content types, size caps while streaming, truncated bodies, timeouts,
// resets, TLS, error bodies, Retry-After. Plus the classifiers behind its messages.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { describeApiError } from '../../src/main/core/api/client'
import { ApiError } from '../../src/main/core/api/errors'
import { ConnectionError } from '../../src/main/core/connections/errors'
import { SecretUnreadableError } from '../../src/main/core/secrets/sealing'
import { requestJson, type JsonRequest } from '../../src/main/core/api/http'
import { classifyNetworkError } from '../../src/main/core/api/network-errors'

// A throwaway self-signed certificate for 127.0.0.1, used only to provoke a TLS error here.
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgisEpKQ/TU9Roc81g
tNNQ+GlaOzlwdaT2audepDhx6GChRANCAAR8UPc79psLAG0OgaebRtlCpA5sSTrM
uYjq0AvForFFaITc3bAtsJ8+auFrPHv4K2sxZ+mCCFmTygDgJpwGMnoB
-----END PRIVATE KEY-----`
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUZn5tULinjUi8E+mLBMgVZMFXG24wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMTIwMzgyN1oYDzIxMjYxMDI4
MjAzODI3WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAR8UPc79psLAG0OgaebRtlCpA5sSTrMuYjq0AvForFFaITc3bAtsJ8+
auFrPHv4K2sxZ+mCCFmTygDgJpwGMnoBo28wbTAdBgNVHQ4EFgQUvSfks2o6tgFm
MFh8dHPPW8nMkbowHwYDVR0jBBgwFoAUvSfks2o6tgFmMFh8dHPPW8nMkbowDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAKcgkvpCHm/LuA3hjxZ3es/S4xw/4HtefT8K5lmFtCNzAiBk
Yw/6E5H6UEWiSB4W6nDDZrLr4cXhOSJd8Qb4/GfW8A==
-----END CERTIFICATE-----`

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()))
})

async function listen(server: Server, scheme = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  )
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

async function serve(handler: Handler): Promise<{ url: string; hits: IncomingMessage[] }> {
  const hits: IncomingMessage[] = []
  const url = await listen(
    createHttpServer((req, res) => {
      hits.push(req)
      handler(req, res)
    })
  )
  return { url, hits }
}

const reply =
  (status: number, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }): Handler =>
  (_req, res) => {
    res.writeHead(status, headers)
    res.end(body)
  }

async function failure(req: JsonRequest): Promise<ApiError> {
  try {
    await requestJson(req)
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected the request to fail')
}

const ENDPOINT = 'GET /v1/test'

describe('requestJson: content types', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'application/problem+json', 'application/vnd.api+json'])(
    'accepts %s',
    async (type) => {
      const { url } = await serve(reply(200, '{"ok":true}', { 'Content-Type': type }))
      expect((await requestJson({ endpoint: ENDPOINT, url })).body).toEqual({ ok: true })
    }
  )

  it('tolerates a missing content type when the body is JSON', async () => {
    const { url } = await serve((_req, res) => {
      res.removeHeader('Content-Type')
      res.end('{"ok":1}')
    })
    expect((await requestJson({ endpoint: ENDPOINT, url })).body).toEqual({ ok: 1 })
  })

  it('refuses a missing content type when the body is not JSON', async () => {
    const { url } = await serve((_req, res) => res.end('hello'))
    expect((await failure({ endpoint: ENDPOINT, url })).kind).toBe('response-format')
  })

  it.each(['text/html; charset=utf-8', 'text/plain', 'application/xml'])('refuses a 200 with %s, naming the type', async (type) => {
    const { url } = await serve(reply(200, '{"looks":"like json"}', { 'Content-Type': type }))
    const error = await failure({ endpoint: ENDPOINT, url })
    expect(error.kind).toBe('response-format')
    expect(error.status).toBe(200)
    expect(error.message).toContain(type.split(';')[0])
    expect(error.message.startsWith(`${ENDPOINT}: `)).toBe(true)
  })

  it('gives response-format for a truncated JSON body and for an empty one', async () => {
    const cut = await serve(reply(200, '{"data":[{"eventSessionId":"a"},{"eventSess'))
    const truncated = await failure({ endpoint: ENDPOINT, url: cut.url })
    expect(truncated.kind).toBe('response-format')
    expect(truncated.message).toMatch(/not valid JSON/)
    const empty = await serve(reply(200, ''))
    expect((await failure({ endpoint: ENDPOINT, url: empty.url })).kind).toBe('response-format')
  })
})

describe('requestJson: size cap', () => {
  it('stops reading a chunked body past the cap, without a Content-Length to warn it', async () => {
    let written = 0
    let closed = false
    const { url } = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }) // chunked: no length
      res.write('[')
      const chunk = `${'"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",'.repeat(200)}`
      const timer = setInterval(() => {
        if (res.destroyed || written > 5_000_000) {
          clearInterval(timer)
          return res.end('0]')
        }
        written += chunk.length
        res.write(chunk)
      }, 1)
      req.socket.on('close', () => {
        closed = true
        clearInterval(timer)
      })
    })
    const error = await failure({ endpoint: ENDPOINT, url, maxBodyBytes: 50_000 })
    expect(error.kind).toBe('response-format')
    expect(error.message).toMatch(/larger than 50000 bytes/)
    // The client hung up instead of swallowing megabytes.
    await expect.poll(() => closed).toBe(true)
    expect(written).toBeLessThan(5_000_000)
  })

  it('refuses at once a body whose Content-Length is past the cap', async () => {
    const { url } = await serve(reply(200, JSON.stringify({ pad: 'x'.repeat(2000) }), { 'Content-Type': 'application/json' }))
    const error = await failure({ endpoint: ENDPOINT, url, maxBodyBytes: 1000 })
    expect(error.kind).toBe('response-format')
    expect(error.message).toMatch(/larger than 1000 bytes/)
  })

  it('accepts a body right at the cap', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(990) })
    const { url } = await serve(reply(200, body))
    expect(await requestJson({ endpoint: ENDPOINT, url, maxBodyBytes: Buffer.byteLength(body) })).toMatchObject({ status: 200 })
  })
})

describe('requestJson: network failures', () => {
  it('times out waiting for the headers', async () => {
    const { url } = await serve(() => undefined) // never answers
    const started = Date.now()
    const error = await failure({ endpoint: ENDPOINT, url, timeoutMs: 150 })
    expect(error.kind).toBe('network')
    expect(error.networkCause).toBe('timeout')
    expect(error.message).toMatch(/timed out/)
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('times out a body that stalls after the headers (the timeout covers the whole exchange)', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{"data":[')
    })
    const error = await failure({ endpoint: ENDPOINT, url, timeoutMs: 150 })
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/timed out/)
  })

  it('says "connection refused" for a closed port', async () => {
    const { url } = await serve(reply(200, '{}'))
    await cleanups.pop()?.()
    const error = await failure({ endpoint: ENDPOINT, url })
    expect(error.kind).toBe('network')
    expect(error.networkCause).toBe('refused')
    expect(error.message).toMatch(/connection refused/)
  })

  it('says "connection reset" when the server drops the connection', async () => {
    const { url } = await serve((req) => req.socket.destroy())
    const error = await failure({ endpoint: ENDPOINT, url })
    expect(error.kind).toBe('network')
    expect(error.networkCause).toBe('reset')
    expect(error.message).toMatch(/connection reset/)
  })

  it('says "TLS error: …" for a certificate it cannot trust', async () => {
    const server = createHttpsServer({ key: TEST_KEY, cert: TEST_CERT }, (_req, res) => res.end('{}'))
    const url = await listen(server as unknown as Server, 'https')
    const error = await failure({ endpoint: ENDPOINT, url })
    expect(error.kind).toBe('network')
    expect(error.networkCause).toBe('tls')
    // Self-signed; on a box whose clock is behind the certificate's, "not valid yet" comes first.
    expect(error.message).toMatch(/: TLS error: the server certificate is (self-signed|not valid yet)/)
  })
})

describe('requestJson: error statuses', () => {
  it('maps statuses to kinds and keeps the JSON message', async () => {
    const cases: [number, string][] = [
      [400, 'response-format'],
      [401, 'authentication'],
      [403, 'permission'],
      [404, 'not-found'],
      [408, 'server'],
      [429, 'rate-limited'],
      [500, 'server'],
      [503, 'server']
    ]
    for (const [status, kind] of cases) {
      const { url } = await serve(reply(status, JSON.stringify({ error: 'code', message: `reason ${status}` })))
      const error = await failure({ endpoint: ENDPOINT, url })
      expect(error.kind, String(status)).toBe(kind)
      expect(error.status).toBe(status)
      expect(error.message).toBe(`${ENDPOINT}: HTTP ${status}: reason ${status}`)
    }
  })

  it('reads error, error_description, detail and nested error.message too', async () => {
    for (const [body, expected] of [
      [{ error: 'invalid_token' }, 'invalid_token'],
      [{ error: 'x', error_description: 'token expired' }, 'token expired'],
      [{ title: 'Bad', detail: 'cursor unknown' }, 'cursor unknown'],
      [{ error: { code: 7, message: 'nested reason' } }, 'nested reason']
    ] as const) {
      const { url } = await serve(reply(500, JSON.stringify(body)))
      expect((await failure({ endpoint: ENDPOINT, url })).message).toContain(expected)
    }
  })

  it('strips an HTML error page to its words, short', async () => {
    const page =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>h1{color:red}</style>' +
      '<script>var x = "<b>"</script></head><body><h1>Bad Gateway</h1><p>' +
      'upstream &amp; friends gone</p>' +
      '<p>' +
      'lorem ipsum '.repeat(100) +
      '</p></body></html>'
    const { url } = await serve(reply(502, page, { 'Content-Type': 'text/html' }))
    const error = await failure({ endpoint: ENDPOINT, url })
    expect(error.kind).toBe('server')
    expect(error.message).toMatch(/^GET \/v1\/test: HTTP 502: 502 Bad Gateway Bad Gateway upstream & friends gone/)
    expect(error.message).not.toMatch(/[<>]|color|var x/)
    expect(error.reason.length).toBeLessThanOrEqual(140)
  })

  it('never echoes the bearer token or a secret it sent, even when the body does', async () => {
    const token = 'tok-SECRET-1234567890'
    const { url } = await serve((req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ message: `token ${token} rejected; header was ${req.headers.authorization}` }))
    })
    const error = await failure({ endpoint: ENDPOINT, url, headers: { Authorization: `Bearer ${token}` } })
    expect(error.kind).toBe('authentication')
    expect(error.message).not.toContain(token)
    expect(error.message).toContain('[redacted]')

    const secret = 'client-secret-xyz'
    const echo = await serve((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => reply(400, JSON.stringify({ message: `bad request: ${body}` }))(req, res))
    })
    const tokenError = await failure({ endpoint: 'POST /v2/auth/token', url: echo.url, method: 'POST', body: { client_secret: secret } })
    expect(tokenError.message).not.toContain(secret)
  })

  it('reads Retry-After on 429 and 503, in seconds or as an HTTP date on the clock given', async () => {
    const now = Date.parse('2025-03-10T09:00:00.000Z')
    const seconds = await serve(reply(429, '{}', { 'Content-Type': 'application/json', 'Retry-After': '7' }))
    expect((await failure({ endpoint: ENDPOINT, url: seconds.url })).retryAfterMs).toBe(7000)
    const date = await serve(
      reply(503, '{}', { 'Content-Type': 'application/json', 'Retry-After': new Date(now + 3000).toUTCString() })
    )
    expect((await failure({ endpoint: ENDPOINT, url: date.url, clock: () => now })).retryAfterMs).toBe(3000)
    const huge = await serve(reply(429, '{}', { 'Content-Type': 'application/json', 'Retry-After': '99999' }))
    expect((await failure({ endpoint: ENDPOINT, url: huge.url })).retryAfterMs).toBe(300_000)
    // Only 429 and 503 carry it; a 500 with Retry-After backs off on our terms.
    const other = await serve(reply(500, '{}', { 'Content-Type': 'application/json', 'Retry-After': '7' }))
    expect((await failure({ endpoint: ENDPOINT, url: other.url })).retryAfterMs).toBeUndefined()
    const none = await serve(reply(429, '{}'))
    expect((await failure({ endpoint: ENDPOINT, url: none.url })).retryAfterMs).toBeUndefined()
  })

  it('does not follow a redirect (the token would go along)', async () => {
    const target = await serve(reply(200, '{}'))
    const { url } = await serve(reply(302, '', { Location: `${target.url}/elsewhere` }))
    const error = await failure({ endpoint: ENDPOINT, url, headers: { Authorization: 'Bearer t' } })
    expect(error.kind).toBe('response-format')
    expect(error.message).toMatch(/HTTP 302: redirects are not followed/)
    expect(target.hits.length).toBe(0)
  })
})

describe('classifyNetworkError', () => {
  const fetchFailed = (cause: unknown): TypeError => new TypeError('fetch failed', { cause })
  const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code })

  it.each([
    ['CERT_HAS_EXPIRED', /^TLS error: the server certificate has expired/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /^TLS error: .*self-signed/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /^TLS error: .*self-signed/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /^TLS error: .*cannot be verified/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /^TLS error: .*host name/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /^TLS error: ERR_SSL_WRONG_VERSION_NUMBER/]
  ])('names %s as a TLS error', (code, words) => {
    const problem = classifyNetworkError(fetchFailed(coded(code)))
    expect(problem?.cause).toBe('tls')
    expect(problem?.message).toMatch(words)
  })

  it.each([
    ['ECONNREFUSED', 'refused', 'connection refused'],
    ['ENOTFOUND', 'unknown-host', 'unknown host'],
    ['EAI_AGAIN', 'dns-temporary', 'unknown host'],
    ['ECONNRESET', 'reset', 'connection reset'],
    ['UND_ERR_SOCKET', 'reset', 'connection reset'],
    ['ETIMEDOUT', 'timeout', 'timed out'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout', 'timed out']
  ])('names %s', (code, cause, words) => {
    const problem = classifyNetworkError(fetchFailed(coded(code)))
    expect(problem?.cause).toBe(cause)
    expect(problem?.message).toContain(words)
  })

  it('finds the code inside an AggregateError (several addresses tried)', () => {
    const aggregate = new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed')
    expect(classifyNetworkError(fetchFailed(aggregate))?.cause).toBe('refused')
  })

  it('knows timeouts by name and leaves what is not the network alone', () => {
    expect(classifyNetworkError(new DOMException('t', 'TimeoutError'))?.message).toBe('timed out')
    expect(classifyNetworkError(new SyntaxError('Unexpected token'))).toBeUndefined()
    expect(classifyNetworkError(undefined)).toBeUndefined()
    expect(classifyNetworkError(fetchFailed(new Error('something odd')))).toEqual({ cause: 'other', message: 'something odd' })
  })
})

describe('describeApiError', () => {
  it('keeps an ApiError as it is', () => {
    const error = new ApiError('permission', 'GET /v1/events/sessions', 'HTTP 403: no', 403)
    expect(describeApiError(error)).toEqual({ kind: 'permission', message: 'GET /v1/events/sessions: HTTP 403: no' })
  })

  it('calls anything that looks like the network "network"', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) })
    expect(describeApiError(error)).toEqual({ kind: 'network', message: 'unknown host' })
    expect(describeApiError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).kind).toBe('network')
  })

  it('keeps the kind and the whole sentence of a cause on this side: a secret that cannot be used is "configuration"', () => {
    const unreadable = new SecretUnreadableError(
      'the secret "0d9a4c1e-4b7e-4a57-9a2e-8c6f0b1d2e3f" of eventwatch cannot be decrypted: EVENTWATCH_SECRET_KEY_FILE is not set on this server; set it to the key file every server shares'
    )
    expect(describeApiError(unreadable)).toEqual({ kind: 'configuration', message: unreadable.message })
    const none = new ConnectionError('configuration', 'no client secret stored for Fabrikam: save one, or set EVENTWATCH_CLIENT_SECRET')
    expect(describeApiError(none)).toEqual({ kind: 'configuration', message: none.message })
    // Not a kind of the taxonomy: classified as anything else.
    expect(describeApiError(Object.assign(new Error('odd'), { kind: 'made-up' })).kind).toBe('response-format')
  })

  it('calls everything else "response-format", in one short line without tokens', () => {
    expect(describeApiError(new SyntaxError('Unexpected end of JSON input'))).toEqual({
      kind: 'response-format',
      message: 'Unexpected end of JSON input'
    })
    const leaky = describeApiError(new Error('failed with Authorization: Bearer abc.def.ghi\n    at foo (x.ts:1:2)'))
    expect(leaky.message).not.toContain('abc.def.ghi')
    expect(leaky.message).not.toContain('\n')
    expect(describeApiError(undefined)).toEqual({ kind: 'response-format', message: 'unexpected response' })
    expect(describeApiError('plain words').message).toBe('plain words')
    expect(describeApiError(new Error('x'.repeat(500))).message.length).toBeLessThanOrEqual(120)
  })
})
