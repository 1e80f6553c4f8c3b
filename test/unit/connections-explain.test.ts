// The plain words of "Test connection" for every kind of failure, from ApiErrors built by hand
// (the integration tests produce the common ones over real HTTP; these cover the rest).
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/main/core/api/errors'
import { ConnectionError, redact } from '../../src/main/core/connections/errors'
import { explainFailure, type FailureContext } from '../../src/main/core/connections/explain'

const token: FailureContext = { urlLabel: 'auth URL', url: 'https://auth.example.com/x', platformId: 'p1', tenantId: 't1' }
const data: FailureContext = { ...token, urlLabel: 'base URL', url: 'https://api.example.com' }
const tokenError = (kind: ApiError['kind'], message: string, status?: number) =>
  new ApiError(kind, 'POST /v2/auth/token', message, status)
const dataError = (kind: ApiError['kind'], message: string, status?: number) =>
  new ApiError(kind, 'GET /v1/events/sessions', message, status)

describe('explainFailure', () => {
  it.each([
    ['unknown host', /^unknown host: "auth.example.com" could not be found\. Check the auth URL\.$/],
    ['getaddrinfo EAI_AGAIN auth.example.com', /^unknown host/],
    ['connection refused', /^connection refused by auth.example.com: .*host and port/],
    ['timed out', /^timeout: auth.example.com did not answer in time/],
    ['TLS error: the server certificate has expired (CERT_HAS_EXPIRED)', /^TLS error talking to auth.example.com — certificate problem: the server certificate has expired \(CERT_HAS_EXPIRED\)\. /],
    ['self-signed certificate', /^TLS error .* certificate problem: self-signed certificate\./],
    ['connection reset', /^the connection to auth.example.com was cut off \(connection reset\)/],
    ['something odd', /^network error reaching auth.example.com: something odd\. Check the auth URL/]
  ])('network: %s', (reason, words) => {
    expect(explainFailure(tokenError('network', reason), token)).toMatch(words)
  })

  it('prefers the client’s own network classification when it has one', () => {
    const error = Object.assign(tokenError('network', 'name lookup failed'), { networkCause: 'dns-temporary' })
    expect(explainFailure(error, token)).toMatch(/^unknown host/)
  })

  it('names the field to check for each HTTP answer', () => {
    expect(explainFailure(tokenError('authentication', 'the credentials were refused', 401), token)).toBe(
      'wrong client ID or client secret: the service refused them (HTTP 401). Check both.'
    )
    expect(explainFailure(dataError('permission', 'HTTP 403: forbidden', 403), data)).toMatch(
      /^access denied \(HTTP 403\): this client may not read platform-id "p1" \/ tenant-id "t1"\./
    )
    expect(explainFailure(dataError('not-found', 'HTTP 404', 404), data)).toBe(
      'nothing found at api.example.com (HTTP 404): check the base URL (the path before /v1 or /v2).'
    )
    expect(explainFailure(dataError('response-format', 'response is not JSON: <html>', 200), data)).toMatch(
      /^unexpected response from api.example.com \(HTTP 200\): the address may not be the reporting API\. Check the base URL\. \(response is not JSON/
    )
    expect(explainFailure(dataError('rate-limited', 'HTTP 429', 429), data)).toMatch(/limiting requests \(HTTP 429\): wait/)
    expect(explainFailure(dataError('server', 'HTTP 503: upstream busy', 503), data)).toBe(
      'the service had a problem (HTTP 503): upstream busy. Try again later.'
    )
    expect(explainFailure(dataError('authentication', 'HTTP 401', 401), data)).toMatch(/did not accept the access token/)
  })

  it('passes configuration problems through and words anything else', () => {
    expect(explainFailure(new ConnectionError('configuration', 'no client secret stored for X'), token)).toBe(
      'no client secret stored for X'
    )
    expect(explainFailure(new Error('boom'), token)).toBe('unexpected failure: boom')
  })
})

describe('redact', () => {
  it('masks every occurrence of each secret', () => {
    expect(redact('a hunter22 b hunter22 tok-123', ['hunter22', 'tok-123', undefined])).toBe('a [redacted] b [redacted] [redacted]')
  })
})
