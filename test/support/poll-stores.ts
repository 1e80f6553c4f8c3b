// What a poller stores into, on a test's cache `db`: the Store writing on db's own connection (as
// the core's does: docs/store.md, "While callers are converted") and viewer lists on this thread.
// One pair per cache, the same at every call; the Store is closed when the test ends.
import { onTestFinished } from 'vitest'
import type { Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { inThreadViewerStore, type ViewerListStore } from '../../src/main/core/store/viewer-store'

export interface PollStores {
  store: SqliteStore
  viewerStore: ViewerListStore
}

const opened = new WeakMap<Db, PollStores>()

export function storesOf(db: Db): PollStores {
  let stores = opened.get(db)
  if (!stores) {
    stores = { store: openSqliteStore(db.name, { writer: db }), viewerStore: inThreadViewerStore(db) }
    opened.set(db, stores)
    const { store } = stores
    onTestFinished(() => store.close())
  }
  return stores
}
