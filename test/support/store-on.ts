// The Store on a test's cache, as the core opens it (app/start.ts): on the cache's own connection
// while callers move to it (docs/store.md, "While callers are converted"); closed when the test ends.
import { onTestFinished } from 'vitest'
import type { Db } from '../../src/main/core/store/db'
import type { Tx } from '../../src/main/core/store/interface/store'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'

export function storeOn(db: Db): SqliteStore {
  const store = openSqliteStore(db.name, { writer: db })
  onTestFinished(() => store.close())
  return store
}

/** Runs `work` as one unit of work on the cache `db` (a Store opened on its connection for it, then closed). */
export async function inUnitOn<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const store = openSqliteStore(db.name, { writer: db })
  try {
    return await store.withTransaction(work)
  } finally {
    await store.close()
  }
}
