// Every way a call to the reporting API can fail, as one error type in the shared taxonomy.
// Messages name the endpoint and a short cause, never a token or a secret.
import type { ErrorKind } from '../../../shared/error-kinds'

export type { ErrorKind }

/**
 * What kind of network failure a 'network' ApiError was. The retry policy needs it: a reset or
 * a timeout may pass, an unknown host or a bad certificate will not.
 */
export type NetworkCause =
  | 'refused'
  | 'unknown-host'
  | 'dns-temporary'
  | 'reset'
  | 'timeout'
  | 'tls'
  | 'proxy'
  | 'proxy-auth'
  | 'other'

export class ApiError extends Error {
  /** The message without the endpoint in front, for logs that show the endpoint apart. */
  readonly reason: string

  constructor(
    readonly kind: ErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number,
    /** For 429 and 503 answers with Retry-After: how long the service asked us to wait. */
    readonly retryAfterMs?: number,
    /** For kind 'network': what failed. */
    readonly networkCause?: NetworkCause
  ) {
    super(`${endpoint}: ${message}`)
    this.reason = message
    this.name = 'ApiError'
  }
}

/** An ApiError's message ("GET /v1/events/sessions: connection refused") without the request in
 *  front ("connection refused"), for a line that names the connection instead; any other text as it is. */
export function reasonOfMessage(message: string): string {
  return message.replace(/^[A-Z]+ \/\S*: /, '')
}

/** The taxonomy kind of an HTTP status. */
export function kindOfStatus(status: number): ErrorKind {
  if (status === 401) return 'authentication'
  if (status === 403) return 'permission'
  if (status === 404) return 'not-found'
  if (status === 429) return 'rate-limited'
  if (status === 408 || status >= 500) return 'server'
  return 'response-format'
}
