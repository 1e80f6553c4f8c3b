// The viewers of dropped lists, deleted a batch at a time. Dropping a list (a swap replacing it,
// an abandoned staging, retention, its session or connection removed) deletes its row only; a
// trigger notes it in viewer_lists_dropped (the baseline), and its rows go here, at most `batch`
// viewers per transaction, as retention.ts prunes: never one burst of WAL and dead tuples inside
// the swap, and nothing that waits on it for long. Readers never see those rows: every read
// goes through a held list's row.
//
// Several servers may purge at once: each takes the lists it works on with SKIP LOCKED.
import { DEFAULT_BATCH_SIZE } from '../retention'
import type { PgStore } from './pg-store'
import { one, type Sql } from './sql'
import { transaction } from './viewer-staging'

export interface PurgeBatch {
  /** Dropped lists whose last rows went in this batch. */
  lists: number
  viewers: number
}

const NEXT_DROPPED = 'SELECT list_id AS id FROM viewer_lists_dropped ORDER BY dropped_at, list_id LIMIT 1 FOR UPDATE SKIP LOCKED'

/**
 * One transaction's worth, run in the caller's: rows of dropped lists, up to `batch` viewers
 * (lists taken whole while they fit, the last one cut at `batch`). Nothing dropped: zeros.
 */
export async function purgeDroppedBatch(sql: Sql, batch = DEFAULT_BATCH_SIZE): Promise<PurgeBatch> {
  const done: PurgeBatch = { lists: 0, viewers: 0 }
  while (done.viewers < batch) {
    const list = await one<{ id: number }>(sql, NEXT_DROPPED)
    if (!list) break
    const left = batch - done.viewers
    // The first ordinal past this batch's share; none: the rest of the list fits.
    const cut = await one<{ ordinal: number }>(sql, 'SELECT ordinal FROM viewers WHERE list_id = $1 ORDER BY ordinal OFFSET $2 LIMIT 1', [list.id, left])
    const below = cut ? 'AND ordinal < $2' : ''
    const values = cut ? [list.id, cut.ordinal] : [list.id]
    done.viewers += (await sql(`DELETE FROM viewers WHERE list_id = $1 ${below}`, values)).count
    await sql(`DELETE FROM viewer_connections WHERE list_id = $1 ${below}`, values)
    if (cut) break
    await sql('DELETE FROM viewer_lists_dropped WHERE list_id = $1', [list.id])
    done.lists++
  }
  return done
}

/** The purge as steps, one transaction of at most `batch` viewers each, until nothing dropped is
 *  left; it returns what it purged. (RetentionJob runs it as PostgreSQL's compaction: open-cache.ts.) */
export async function* purgeSteps(store: PgStore, batch?: number): AsyncGenerator<PurgeBatch, PurgeBatch> {
  const total: PurgeBatch = { lists: 0, viewers: 0 }
  for (;;) {
    const done = await store.withClient((client) => transaction(client, (sql) => purgeDroppedBatch(sql, batch)))
    if (done.viewers === 0 && done.lists === 0) return total
    total.lists += done.lists
    total.viewers += done.viewers
    yield done
  }
}

export interface PurgeOptions {
  /** Viewers per transaction (default: retention's batch). */
  batch?: number
  /** Asked before each batch: true stops the purge there. */
  stopped?: () => boolean
  onBatch?: (batch: PurgeBatch) => void
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Purges every dropped list's viewers, a turn of the event loop between batches; answers what it purged. */
export async function purgeDroppedViewerLists(store: PgStore, options: PurgeOptions = {}): Promise<PurgeBatch> {
  const steps = purgeSteps(store, options.batch)
  for (;;) {
    await nextTurn()
    if (options.stopped?.()) {
      await steps.return({ lists: 0, viewers: 0 })
      return { lists: 0, viewers: 0 }
    }
    const step = await steps.next()
    if (step.done) return step.value
    options.onBatch?.(step.value)
  }
}
