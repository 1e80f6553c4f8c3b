// How the SQLite tables answer: each call is one synchronous statement (or one transaction of the
// driver, a savepoint inside a unit), run at once and handed back as a settled promise.
import { storageFault } from '../../storage-faults'

/** Runs one synchronous store call; its value, or its error (a fault of the cache file in words). */
export type Runner = <T>(call: () => T) => Promise<T>

export interface Runners {
  read: Runner
  write: Runner
}

export function answerNow<T>(call: () => T, file: string): Promise<T> {
  try {
    return Promise.resolve(call())
  } catch (error) {
    return Promise.reject(storageFault(error, file) ?? (error instanceof Error ? error : new Error(String(error))))
  }
}

/** A runner that refuses every call with `error()`. */
export const refusing =
  (error: () => Error): Runner =>
  () =>
    Promise.reject(error())
