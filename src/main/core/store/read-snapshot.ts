// One consistent read of the cache for a command that only reads it (export, report): the cache
// opened through its Store (a SQLite file or a PostgreSQL database), every read of `body` in one
// long read-only unit, so a sync writing meanwhile changes nothing it sees, and `body` may write
// its output between two pages; closed after, whatever `body` did. `body` gets the cache's name
// in words (a URL without its password).
import type { ReadTx } from './interface/store'
import { openCache } from './open-cache'

export async function withReadSnapshot<T>(where: string, body: (read: ReadTx, cache: string) => Promise<T>): Promise<T> {
  const cache = await openCache(where)
  try {
    return await cache.store.withTransaction((tx) => body(tx, cache.name), { readOnly: true, long: true })
  } finally {
    await cache.store.close()
  }
}
