// Cancellation from the top (issue 13): one AbortSignal, from SIGINT/SIGTERM, pause, quit or a
// pass's deadline, reaches every wait — the limiter's gates, retry back-offs, Retry-After, token
// renewal — and every request in flight. What it throws is the signal's reason: a CancelledError
// for a stop asked by someone (not a failure), or the error a deadline gave.

/** A stop someone asked for: the work ends at once, and it is not a failure of anything. */
export class CancelledError extends Error {
  constructor(message = 'stopped on request') {
    super(message)
    this.name = 'CancelledError'
  }
}

export function isCancelled(error: unknown): error is CancelledError {
  return error instanceof CancelledError
}

/** What an aborted signal throws: its reason when that is an Error, else a CancelledError. */
export function cancellation(signal: AbortSignal): Error {
  return signal.reason instanceof Error && signal.reason.name !== 'AbortError' ? signal.reason : new CancelledError()
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancellation(signal)
}

/** `promise`, or the signal's cancellation if that comes first (the work itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(cancellation(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancellation(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      }
    )
  })
}

/** Waits `ms`, or rejects with the signal's cancellation as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancellation(signal))
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(cancellation(signal as AbortSignal))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** One signal that aborts when any of `signals` does (undefined ones ignored). */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined)
  if (present.length <= 1) return present[0]
  return AbortSignal.any(present)
}
