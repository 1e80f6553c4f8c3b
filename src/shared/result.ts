// Results cross process boundaries (IPC, HTTP) as plain data: never a thrown exception.

export interface AppError {
  /** Stable machine-readable code, e.g. "invalid-arguments", "unknown-request", "internal". */
  code: string
  /** One short sentence a person can act on. Never contains a secret. */
  message: string
  /** Arguments the contract refused: the field at fault ("window.endsAt") and what is wrong with
   *  it, for a face that names its own control instead (the CLI's --to). */
  issue?: { field: string; problem: string }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = (code: string, message: string, issue?: AppError['issue']): Result<never> => ({
  ok: false,
  error: issue ? { code, message, issue } : { code, message }
})
