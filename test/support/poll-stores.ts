// What a poller stores into, on a test's cache `db`: the Store writing on db's own connection (as
// the core's does: docs/store.md, "While callers are converted"; storeOn's, one per connection)
// and viewer lists on this thread (one per connection too).
import type { Db } from '../../src/main/core/store/db'
import type { SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'
import { inThreadViewerStore, type ViewerListStore } from '../../src/main/core/store/viewer-store'
import { storeOn } from './store-on'

export interface PollStores {
  store: SqliteStore
  viewerStore: ViewerListStore
}

const viewerStores = new WeakMap<Db, ViewerListStore>()

export function storesOf(db: Db): PollStores {
  let viewerStore = viewerStores.get(db)
  if (!viewerStore) {
    viewerStore = inThreadViewerStore(db)
    viewerStores.set(db, viewerStore)
  }
  return { store: storeOn(db), viewerStore }
}
