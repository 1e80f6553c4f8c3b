// Every way a call to the reporting API can fail, as one error type with a short reason.
// Messages name the endpoint and the cause, never a token or a secret.

export type ApiErrorKind = 'network' | 'timeout' | 'http' | 'auth' | 'bad-response'

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly endpoint: string,
    message: string,
    readonly status?: number
  ) {
    super(`${endpoint}: ${message}`)
    this.name = 'ApiError'
  }
}
