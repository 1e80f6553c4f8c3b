// Every way a call to the reporting API can fail, as one error type in the shared taxonomy.
// Messages name the endpoint and a short cause, never a token or a secret.
import type { ErrorKind } from '../../../shared/error-kinds'

export type { ErrorKind }

export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number,
    /** For rate-limited answers: how long the service asked us to wait. */
    readonly retryAfterMs?: number
  ) {
    super(`${endpoint}: ${message}`)
    this.name = 'ApiError'
  }
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
