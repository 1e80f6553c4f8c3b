// The async Store on a test's cache file, writing on the test's own connection as the core's does
// while its callers move to the Store (docs/store.md, "While callers are converted"): what the
// test writes through `db` and what the code under test writes through the Store share one
// writer. One Store per connection, the same at every call: two would each run their units on
// the one connection, and the second's BEGIN would land inside the first's transaction. Closed
// when the test ends (the connection stays its owner's to close).
import { onTestFinished } from 'vitest'
import type { Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'

const open = new WeakMap<Db, SqliteStore>()

export function storeOn(db: Db): SqliteStore {
  const kept = open.get(db)
  if (kept) return kept
  const store = openSqliteStore(db.name, { writer: db })
  const close = store.close.bind(store)
  store.close = async () => {
    if (open.get(db) === store) open.delete(db)
    await close()
  }
  open.set(db, store)
  onTestFinished(() => store.close())
  return store
}
