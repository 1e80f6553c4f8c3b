// Where a fetched viewer list goes to be stored, page by page as it arrives: memory is bounded
// by a few pages, not by the list (issue 13). Each page is written under a staged list and the
// list is swapped in whole when its last page lands (viewer-staging.ts); readers never see half.
//   - inThreadViewerStore: writes on this thread, on the next turn of the event loop (tests);
//   - startViewerWriter (viewer-writer.ts): writes on a worker thread with its own connection,
//     so parsing and storing use both cores (`eventwatch sync`, the app's pollers).
import type { ViewerRecord } from '../api/schemas'
import type { Db } from './db'
import { dropAbandonedStagings, ViewerListStager, type StageOp } from './viewer-staging'
import { viewerListRows } from './viewer-rows'

/** One list being stored: pages go in as they come, then it is committed or abandoned. */
export interface StagedViewerList {
  /** Stages a page. Resolves when the next may come (few are in hand); rejects if staging failed. */
  add(viewers: readonly ViewerRecord[]): Promise<void>
  /** Swaps the list in; resolves with the viewers it holds. Rejects (nothing swapped) on failure. */
  commit(pages: number, fetchedAt: number): Promise<number>
  /** Drops what was staged; never rejects. */
  abandon(): Promise<void>
}

export interface ViewerListStore {
  begin(connectionId: string, eventSessionId: string, at: number): StagedViewerList
  /** A whole list in hand: begin, one page, commit. Rejects (storing nothing) when it could not be. */
  store(connectionId: string, eventSessionId: string, viewers: readonly ViewerRecord[], fetchedAt: number, pages: number): Promise<void>
  /** Waits for the lists in hand, then releases what the store holds. */
  close(): Promise<void>
}

/** A stage operation as the store hands it over: a page still as records, for the backend to encode its own way. */
export type StoreOp = Exclude<StageOp, { type: 'page' }> | { type: 'page'; key: number; viewers: readonly ViewerRecord[]; at: number }

/** Runs stage operations in order wherever the database is; a commit answers the viewers held. */
export type StageBackend = (op: StoreOp) => Promise<number | undefined>

/** Pages of one list handed to the backend and not yet written: the memory bound. */
const PAGES_IN_HAND = 2
/** Viewer ids remembered per list to spot a repeated one; past this, the commit checks in SQL. */
const IDS_REMEMBERED = 20_000

/** The main-thread side of staging: ids, repeated viewers, backpressure, failure. */
export function viewerListStore(backend: StageBackend, close: () => Promise<void>): ViewerListStore {
  let nextKey = 1
  // Lists begun and not yet committed or abandoned: close waits for them.
  const open = new Set<Promise<void>>()
  const begin = (connectionId: string, eventSessionId: string, at: number): StagedViewerList => {
    const key = nextKey++
    let settle = (): void => undefined
    const settled = new Promise<void>((resolve) => (settle = resolve))
    open.add(settled)
    void settled.then(() => open.delete(settled))
    const seen = new Set<string>()
    let dedupe = false
    let failure: { error: unknown } | undefined
    const inHand: Promise<unknown>[] = []
    // Every operation is sent at once (the backend keeps them in order); a failure sticks.
    const send = (op: StoreOp): Promise<number | undefined> => {
      const done = backend(op)
      done.catch((error: unknown) => {
        failure ??= { error }
      })
      return done
    }
    const failed = (): Promise<never> => Promise.reject(failure?.error)
    void send({ type: 'begin', key, connectionId, eventSessionId, at }).catch(() => undefined)
    return {
      async add(viewers) {
        if (failure) return failed()
        if (!dedupe) {
          // One pass: an id already in the set does not grow it.
          for (const viewer of viewers) {
            const size = seen.size
            if (seen.add(viewer.viewerId).size === size) {
              dedupe = true
              break
            }
          }
          if (seen.size > IDS_REMEMBERED) dedupe = true
          if (dedupe) seen.clear()
        }
        const written = send({ type: 'page', key, viewers, at: Date.now() })
        inHand.push(written.catch(() => undefined))
        if (inHand.length >= PAGES_IN_HAND) await inHand.shift()
        if (failure) return failed()
      },
      async commit(pages, fetchedAt) {
        if (failure) return failed()
        try {
          const held = await send({ type: 'commit', key, fetchedAt, pages, dedupe })
          settle()
          return held ?? 0
        } catch (error) {
          // The first operation that failed names the cause (a page before this commit, say).
          const first = failure as { error: unknown } | undefined // set by a callback: not narrowed
          throw first ? first.error : error
        }
      },
      async abandon() {
        await backend({ type: 'abandon', key }).catch(() => undefined)
        settle()
      }
    }
  }
  return {
    begin,
    async store(connectionId, eventSessionId, viewers, fetchedAt, pages) {
      const list = begin(connectionId, eventSessionId, fetchedAt)
      try {
        await list.add(viewers)
        await list.commit(pages, fetchedAt)
      } catch (error) {
        await list.abandon()
        throw error
      }
    },
    async close() {
      await Promise.all(open)
      await close()
    }
  }
}

/** Resolves after the I/O callbacks that are ready now have run (setImmediate's turn). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export function inThreadViewerStore(db: Db): ViewerListStore {
  if (!db.readonly) dropAbandonedStagings(db, Date.now())
  const stager = new ViewerListStager(db)
  return viewerStoreRunning(async (op) => stager.apply(op))
}

/**
 * Viewer lists stored on this thread through `onWriter` (a SqliteStore's writing connection,
 * between its units of work: sqlite/thread-viewers.ts), the stagings an earlier run left dropped
 * first.
 */
export function viewerStoreOnWriter(onWriter: <T>(work: (db: Db) => T) => Promise<T>): ViewerListStore {
  let stager: ViewerListStager | undefined
  const ready = onWriter((db) => {
    dropAbandonedStagings(db, Date.now())
    stager = new ViewerListStager(db)
  })
  return viewerStoreRunning(async (op) => {
    await ready
    return onWriter(() => stager!.apply(op))
  })
}

/** Stage operations applied in order, each on a later turn: responses already in for other
 *  requests are taken first, so the service keeps working on ours while SQLite writes. */
function viewerStoreRunning(apply: (op: StageOp) => Promise<number | undefined>): ViewerListStore {
  let queue: Promise<unknown> = Promise.resolve()
  const backend: StageBackend = (op) => {
    // The rows are built now, so that the records need not be kept until the write.
    const staged: StageOp = op.type === 'page' ? { type: 'page', key: op.key, rows: viewerListRows(op.viewers), at: op.at } : op
    const done = queue.then(nextTurn).then(() => apply(staged))
    queue = done.catch(() => undefined)
    return done
  }
  return viewerListStore(backend, () => queue.then(() => undefined))
}
