// Where a fetched viewer list goes to be stored. The sync pass and the poller hand lists to a
// ViewerListStore and go on fetching; each list is still one transaction, whole or not at all.
//   - inThreadViewerStore: stores on this thread, on the next turn of the event loop (tests, the
//     app's occasional lists);
//   - startViewerWriter (viewer-writer.ts): stores on a worker thread with its own connection,
//     so parsing and storing use both cores (`eventwatch sync`).
import type { ViewerRecord } from '../api/schemas'
import type { Db } from './db'
import { storeViewerList } from './viewers'

export interface ViewerListStore {
  /** Resolves once the list is committed; rejects (storing nothing) when it could not be. */
  store(connectionId: string, eventSessionId: string, viewers: readonly ViewerRecord[], fetchedAt: number, pages: number): Promise<void>
  /** Waits for the lists in hand, then releases what the store holds. */
  close(): Promise<void>
}

/** Resolves after the I/O callbacks that are ready now have run (setImmediate's turn). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export function inThreadViewerStore(db: Db): ViewerListStore {
  return {
    // The next turn, not at once: responses already in for other requests are taken first, so
    // the service keeps working on ours while SQLite writes.
    store: (connectionId, eventSessionId, viewers, fetchedAt, pages) =>
      nextTurn().then(() => storeViewerList(db, connectionId, eventSessionId, viewers, fetchedAt, pages)),
    close: () => Promise.resolve()
  }
}
