// "Test connection": is there a secret, does the service give a token for it, and does the first
// page of sessions come back? Each step reports in plain words; the first failure ends the test
// and the steps after it are OMITTED from the report (not listed as failed), so every listed
// step really ran. No message ever carries the secret or the token.
import type { ConnectionTestReport } from '../../../shared/connections'
import type { ConnectionTarget, Credentials } from '../api/connection'
import { requestJson } from '../api/http'
import { EventSessionSchema, SessionListPageSchema } from '../api/schemas'
import { ApiError } from '../api/errors'
import { TokenManager } from '../api/tokens'
import { fetchFor, type FetchLike } from '../net/connection-fetch'
import { envProxyFor } from '../net/env-proxy'
import { describeCertificateProblem } from './tls-probe'
import { redact } from './errors'
import { explainFailure, hostOf } from './explain'

type Step = ConnectionTestReport['steps'][number]

/** A target, with the optional Origin/Referer a connection may send. */
export type TestTarget = ConnectionTarget & { origin?: string | null; referer?: string | null }

export async function testConnection(
  target: TestTarget,
  credentials: () => Promise<Credentials>
): Promise<ConnectionTestReport> {
  const steps: Step[] = []
  const secrets: (string | undefined)[] = []
  const done = (ok: boolean): ConnectionTestReport => ({
    ok,
    steps: steps.map((s) => ({ ...s, message: redact(s.message, secrets) }))
  })
  const fetch = fetchFor(target.network)
  const fail = async (step: Step['step'], error: unknown, urlLabel: 'auth URL' | 'base URL'): Promise<ConnectionTestReport> => {
    const url = urlLabel === 'auth URL' ? target.authUrl : target.baseUrl
    const proxy = hostOf(target.network?.proxyUrl ?? envProxyFor(url) ?? '') || undefined
    // A certificate failure is worth a second look: which certificate, and why (tls-probe.ts).
    const certificate = isTlsFailure(error) ? await describeCertificateProblem(url, target.network) : undefined
    const context = { urlLabel, url, platformId: target.platformId, tenantId: target.tenantId }
    steps.push({
      step,
      ok: false,
      message: explainFailure(error, { ...context, ...(proxy ? { proxy } : {}), ...(certificate ? { certificate } : {}) })
    })
    return done(false)
  }

  // 1. secret
  let creds: Credentials
  try {
    creds = await credentials()
  } catch (error) {
    return fail('secret', error, 'auth URL')
  }
  secrets.push(creds.clientSecret)
  if (!creds.clientSecret) {
    steps.push({ step: 'secret', ok: false, message: 'no client secret: save one, or set EVENTWATCH_CLIENT_SECRET' })
    return done(false)
  }
  steps.push({ step: 'secret', ok: true, message: 'a client secret is available' })

  // 2. token: a manager of our own, so the test never reuses a token cached elsewhere
  let token: string
  try {
    token = await new TokenManager(target.authUrl, async () => creds, Date.now, { fetch }).get()
  } catch (error) {
    return fail('token', error, 'auth URL')
  }
  secrets.push(token)
  steps.push({ step: 'token', ok: true, message: `got an access token from ${hostOf(target.authUrl)}` })

  // 3. the first page of sessions only: a tenant with years of history should not slow a test
  try {
    const count = await firstPage(target, token, fetch)
    steps.push({ step: 'sessions', ok: true, message: describePage(count) })
  } catch (error) {
    return fail('sessions', error, 'base URL')
  }
  return done(true)
}

interface PageCount {
  total: number
  unreadable: number
  more: boolean
}

async function firstPage(target: TestTarget, token: string, fetch: FetchLike): Promise<PageCount> {
  const endpoint = 'GET /v1/events/sessions'
  const response = await requestJson({
    endpoint,
    url: `${target.baseUrl.replace(/\/+$/, '')}/v1/events/sessions`,
    headers: {
      Authorization: `Bearer ${token}`,
      'platform-id': target.platformId,
      'tenant-id': target.tenantId,
      ...(target.origin ? { Origin: target.origin } : {}),
      ...(target.referer ? { Referer: target.referer } : {})
    },
    fetch
  })
  const page = SessionListPageSchema.safeParse(response.body)
  if (!page.success) throw new ApiError('response-format', endpoint, 'the answer is not a list of sessions', response.status)
  const items = page.data.data ?? []
  return {
    total: items.length,
    unreadable: items.filter((item) => !EventSessionSchema.safeParse(item).success).length,
    more: Boolean(page.data.pagination?.nextCursor)
  }
}

function isTlsFailure(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'network' && error.networkCause === 'tls'
}

function describePage({ total, unreadable, more }: PageCount): string {
  const sessions = total === 1 ? '1 session' : `${total} sessions`
  const rest = more ? '; more pages follow' : ''
  const bad = unreadable ? ` (${unreadable} of them could not be read)` : ''
  return `read the first page of sessions: ${sessions}${bad}${rest}`
}
