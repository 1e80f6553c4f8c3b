// A write on a cache file by "another program" (the CLI, an operator's sqlite3) made from the
// test's own connection, on the thread where an app core runs on the same file. A unit of the
// core's Store holds the write lock across its awaits (docs/store.md): waiting for the lock here
// would wait on the one thread that must release it (busy for 5 s, then "database is locked").
// So the write does not wait: refused while a unit is open, it is tried again on the next turn of
// the event loop, when that unit has ended — as another process's wait would see it.
import type { Db } from '../../src/main/core/store/db'

const TRIES = 100

export async function asAnotherProgram<T>(db: Db, write: () => T | Promise<T>): Promise<T> {
  const waits = db.pragma('busy_timeout', { simple: true }) as number
  db.pragma('busy_timeout = 0')
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (!isBusy(error) || attempt >= TRIES) throw error
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    db.pragma(`busy_timeout = ${waits}`)
  }
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}
