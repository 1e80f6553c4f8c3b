// A unit of work on the cache: its writes commit together or not at all (docs/units-of-work.md).
// It takes the write lock when it begins (BEGIN IMMEDIATE, db.ts); one begun inside another is
// part of it (a savepoint), so a store function that is a unit on its own joins a larger one.
// Synchronous, like the driver: nothing may be awaited inside.
import type { Db } from './db'

export function withTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work)()
}
