// The viewer list writer on PostgreSQL: viewer-store.ts's ViewerListStore (begin, add, commit,
// abandon; a few pages in hand, never a whole list) over a backend that writes each page with COPY
// on a client of the PgStore's pool (viewer-staging.ts here). No worker thread: PostgreSQL writes
// in its own process, so this one only encodes.
//
// A list's operations run in order; different lists' run side by side, each on a client of its
// own while it writes. Dropped lists' viewers are purged in the background, a batch per
// transaction (viewer-purge.ts), after each swap, abandon or drop; close() waits for the batch
// under way.
import { emptyBreakdownSums, type BreakdownSums } from '../queries/breakdown'
import { ABANDONED_AFTER_MS, type StagedList } from '../viewer-staging'
import { viewerListRows } from '../viewer-rows'
import { viewerListStore, type StageBackend, type StoreOp, type ViewerListStore } from '../viewer-store'
import type { PgStore } from './pg-store'
import { purgeDroppedViewerLists } from './viewer-purge'
import { abandonStagedList, beginStagedList, commitStagedList, dropStagings, onClient, stagePage, type WriteGuard } from './viewer-staging'

export interface PgViewerListStore extends ViewerListStore {
  /**
   * Drops staged lists nobody is writing any more: with `connectionId`, every staged list of that
   * connection but this writer's own (a new lease holder's: the fetches of the holder before it are
   * over); without, those untouched for an hour (their process is gone). Their viewers are purged
   * in the background. Resolves with the lists dropped.
   */
  dropAbandonedStagings(connectionId?: string): Promise<number>
}

export interface PgViewerListOptions {
  /** Purge dropped lists' viewers in the background after each swap or drop (default true);
   *  false leaves them to a job that calls purgeDroppedViewerLists. */
  purgeAfterWrites?: boolean
  /** Viewers purged per transaction (default: retention's batch). */
  purgeBatch?: number
  /** Run first in every transaction that writes a list (a lease holder's fence check). */
  guard?: WriteGuard
}

interface Staging {
  list: StagedList
  sums: BreakdownSums
}

export function pgViewerListStore(store: PgStore, options: PgViewerListOptions = {}): PgViewerListStore {
  const stagings = new Map<number, Staging>()
  // Each list's operations, chained: the next waits for the one before (its failure included).
  const chains = new Map<number, Promise<unknown>>()
  let purging: Promise<void> | null = null
  let purgeAgain = false
  let closing = false

  function staging(key: number): Staging {
    const found = stagings.get(key)
    if (!found) throw new Error(`no viewer list is being staged under key ${key}`)
    return found
  }

  function apply(op: StoreOp, rows: ReturnType<typeof viewerListRows> | null): Promise<number | undefined> {
    return store.withClient(async (client) => {
      switch (op.type) {
        case 'begin':
          stagings.set(op.key, { list: await beginStagedList(client, op.connectionId, op.eventSessionId, op.at, Date.now(), options.guard), sums: emptyBreakdownSums() })
          return undefined
        case 'page': {
          const { list, sums } = staging(op.key)
          await stagePage(client, list, rows!, op.at, sums, options.guard)
          return undefined
        }
        case 'commit': {
          const { list, sums } = staging(op.key)
          const held = await commitStagedList(client, list, { fetchedAt: op.fetchedAt, pages: op.pages, dedupe: op.dedupe, sums }, options.guard)
          stagings.delete(op.key) // kept on failure, so that abandon drops what was staged
          schedulePurge()
          return held
        }
        case 'abandon': {
          const found = stagings.get(op.key)
          stagings.delete(op.key)
          if (found) await abandonStagedList(client, found.list)
          schedulePurge()
          return undefined
        }
      }
    })
  }

  const backend: StageBackend = (op) => {
    // The rows are built now, so that the records need not be kept until the write.
    const rows = op.type === 'page' ? viewerListRows(op.viewers) : null
    const done = (chains.get(op.key) ?? Promise.resolve()).then(() => apply(op, rows))
    const settled = done.catch(() => undefined)
    chains.set(op.key, settled)
    if (op.type === 'commit' || op.type === 'abandon') {
      void settled.then(() => {
        // A commit that failed is followed by an abandon: the chain stays until that one.
        if (chains.get(op.key) === settled && !stagings.has(op.key)) chains.delete(op.key)
      })
    }
    return done
  }

  // One purge at a time in this process; asked again while it runs, it goes round once more. A
  // purge that failed waits for the next swap or drop (the rows stay unread meanwhile).
  function schedulePurge(): void {
    if (closing || options.purgeAfterWrites === false) return
    if (purging) {
      purgeAgain = true
      return
    }
    purging = (async () => {
      do {
        purgeAgain = false
        await purgeDroppedViewerLists(store, { batch: options.purgeBatch, stopped: () => closing })
      } while (purgeAgain && !closing)
    })()
      .catch(() => undefined)
      .finally(() => (purging = null))
  }

  const lists = viewerListStore(backend, async () => {
    closing = true
    await purging
  })

  return {
    ...lists,
    async dropAbandonedStagings(connectionId) {
      const own = [...stagings.values()].map((s) => s.list.id)
      const dropped = await store.withClient((client) =>
        dropStagings(onClient(client), connectionId === undefined ? { before: Date.now() - ABANDONED_AFTER_MS } : { connectionId, keep: own })
      )
      if (dropped > 0) schedulePurge()
      return dropped
    }
  }
}
