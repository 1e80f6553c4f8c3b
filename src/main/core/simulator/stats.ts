// What the simulator has seen, so tests can count retries and token requests and look at the
// headers and query of the last data request.

export const ENDPOINTS = {
  token: 'POST /v2/auth/token',
  sessions: 'GET /v1/events/sessions',
  session: 'GET /v1/events/sessions/{id}',
  viewers: 'GET /v1/events/sessions/{id}/viewers',
  other: 'other'
} as const

export type EndpointKey = keyof typeof ENDPOINTS

export interface RecordedRequest {
  endpoint: string
  path: string
  /** The raw query string, without "?". */
  query: string
  headers: Record<string, string | undefined>
  status?: number
}

const LOG_SIZE = 1000

export class SimulatorStats {
  /** Requests per endpoint (keys: ENDPOINTS values), whatever the answer. */
  readonly requests: Record<string, number> = {}
  /** The most recent requests, oldest first (bounded). */
  readonly log: RecordedRequest[] = []
  tokensIssued = 0

  count(key: EndpointKey): number {
    return this.requests[ENDPOINTS[key]] ?? 0
  }

  /** Requests to /v1/…, faults included. */
  get dataRequests(): number {
    return this.count('sessions') + this.count('session') + this.count('viewers')
  }

  get lastDataRequest(): RecordedRequest | undefined {
    return this.log.findLast((r) => r.endpoint !== ENDPOINTS.token)
  }

  record(request: RecordedRequest): RecordedRequest {
    this.requests[request.endpoint] = (this.requests[request.endpoint] ?? 0) + 1
    this.log.push(request)
    if (this.log.length > LOG_SIZE) this.log.shift()
    return request
  }

  reset(): void {
    for (const key of Object.keys(this.requests)) delete this.requests[key]
    this.log.length = 0
    this.tokensIssued = 0
  }
}
