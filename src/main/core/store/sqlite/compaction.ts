// Compaction after retention, on SQLite only (PostgreSQL's autovacuum does its own): compact.ts's
// steps, each one short write on the store's writing connection between two units of work, so a
// retention run never holds the writer longer than one step.
import { compactSteps, type CompactOptions, type CompactResult } from '../compact'
import type { SqliteStore } from './sqlite-store'

/** The steps of one compaction of `store`'s file: each `next()` runs one on its writer. */
export async function* sqliteCompaction(store: SqliteStore, options: CompactOptions = {}): AsyncGenerator<void, CompactResult> {
  let steps: ReturnType<typeof compactSteps> | undefined
  try {
    let step = await store.onWriter((db) => (steps = compactSteps(db, options)).next())
    while (!step.done) {
      yield
      step = await store.onWriter(() => steps!.next())
    }
    return step.value
  } finally {
    // Cut short (the job stopped): the generator's own cleanup, on the writer too.
    if (steps) await store.onWriter(() => steps!.return(undefined as never)).catch(() => undefined)
  }
}
