// Results cross process boundaries (IPC, HTTP) as plain data: never a thrown exception.

export interface AppError {
  /** Stable machine-readable code, e.g. "invalid-arguments", "unknown-request", "internal". */
  code: string
  /** One short sentence a person can act on. Never contains a secret. */
  message: string
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (code: string, message: string): Result<never> => ({
  ok: false,
  error: { code, message }
})
