// The reporting API's endpoints for one connection: headers, token renewal on 401, pagination
// with guards against cursors that repeat and lists that never end.
import type { ConnectionTarget, Credentials } from './connection'
import { ApiError } from './errors'
import { requestJson } from './http'
import { EventSessionSchema, SessionListPageSchema, type EventSessionRecord } from './schemas'
import { TokenManager } from './tokens'

/** A record the client could not use, reported rather than fatal. */
export interface SkippedRecord {
  endpoint: string
  reason: string
}

export interface SessionList {
  sessions: EventSessionRecord[]
  skipped: SkippedRecord[]
  pages: number
}

const MAX_PAGES = 1000

export class ReportingClient {
  private readonly tokens: TokenManager

  constructor(
    private readonly target: ConnectionTarget,
    credentials: () => Promise<Credentials>,
    clock: () => number = Date.now
  ) {
    this.tokens = new TokenManager(target.authUrl, credentials, clock)
  }

  async listSessions(): Promise<SessionList> {
    const endpoint = 'GET /v1/events/sessions'
    const result: SessionList = { sessions: [], skipped: [], pages: 0 }
    const seenCursors = new Set<string>()
    let cursor: string | undefined
    do {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
      const body = await this.get(endpoint, `/v1/events/sessions${query}`)
      const page = SessionListPageSchema.safeParse(body)
      if (!page.success) throw new ApiError('response-format', endpoint, 'response is not a session list')
      result.pages++
      for (const item of page.data.data ?? []) {
        const parsed = EventSessionSchema.safeParse(item)
        if (parsed.success) result.sessions.push(parsed.data)
        else result.skipped.push({ endpoint, reason: describeIssue(parsed.error.issues[0]) })
      }
      // The spec does not say how the last page is marked: absent, null and "" all end it.
      cursor = page.data.pagination?.nextCursor || undefined
      if (cursor && seenCursors.has(cursor)) {
        throw new ApiError('response-format', endpoint, 'the service repeated a page cursor')
      }
      if (cursor) seenCursors.add(cursor)
      if (result.pages >= MAX_PAGES && cursor) {
        throw new ApiError('response-format', endpoint, `more than ${MAX_PAGES} pages; stopped`)
      }
    } while (cursor)
    return result
  }

  async getSession(eventSessionId: string): Promise<EventSessionRecord> {
    const endpoint = 'GET /v1/events/sessions/{id}'
    const body = await this.get(endpoint, `/v1/events/sessions/${encodeURIComponent(eventSessionId)}`)
    const parsed = EventSessionSchema.safeParse(body)
    if (!parsed.success) {
      throw new ApiError('response-format', endpoint, describeIssue(parsed.error.issues[0]))
    }
    return parsed.data
  }

  private async get(endpoint: string, path: string): Promise<unknown> {
    const send = async (token: string): Promise<unknown> =>
      (
        await requestJson({
          endpoint,
          url: `${this.target.baseUrl.replace(/\/+$/, '')}${path}`,
          headers: {
            Authorization: `Bearer ${token}`,
            'platform-id': this.target.platformId,
            'tenant-id': this.target.tenantId
          }
        })
      ).body
    const token = await this.tokens.get()
    try {
      return await send(token)
    } catch (error) {
      // An expired or revoked token: renew once and retry once.
      if (error instanceof ApiError && error.status === 401) return send(await this.tokens.renewAfterRejection(token))
      throw error
    }
  }
}

function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'record does not match the schema'
  const field = issue.path.map(String).join('.') || 'record'
  return `${field}: ${issue.message}`
}
