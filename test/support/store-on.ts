// The async Store on a test's cache file, writing on the test's own connection as the core's does
// while its callers move to the Store (docs/store.md, "While callers are converted"): what the
// test writes through `db` and what the code under test writes through the Store share one
// writer. Closed when the test ends (the connection stays its owner's to close).
import { onTestFinished } from 'vitest'
import type { Db } from '../../src/main/core/store/db'
import { openSqliteStore, type SqliteStore } from '../../src/main/core/store/sqlite/sqlite-store'

export function storeOn(db: Db): SqliteStore {
  const store = openSqliteStore(db.name, { writer: db })
  onTestFinished(() => store.close())
  return store
}
