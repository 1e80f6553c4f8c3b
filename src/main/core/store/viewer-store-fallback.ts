// The cache writer's thread, with this thread as the fallback: should the writer fail to start
// (a runtime where its worker file or native binding cannot load) or stop, viewer lists go on
// being stored, here, and the reason is said once. The lists in hand when it stopped fail (and
// are fetched again at the next pass); every later one is stored.
import type { Db } from './db'
import { inThreadViewerStore, type ViewerListStore } from './viewer-store'
import { startViewerWriter, type ViewerWriterOptions } from './viewer-writer'

export function viewerStoreWithFallback(db: Db, options: ViewerWriterOptions, onFallback: (reason: string) => void): ViewerListStore {
  let fallback: ViewerListStore | null = null
  const writer = startViewerWriter(options, {
    onBroken: (error) => {
      fallback ??= inThreadViewerStore(db)
      onFallback(error.message)
    }
  })
  const current = (): ViewerListStore => fallback ?? writer
  return {
    begin: (connectionId, eventSessionId, at) => current().begin(connectionId, eventSessionId, at),
    store: (connectionId, eventSessionId, viewers, fetchedAt, pages) => current().store(connectionId, eventSessionId, viewers, fetchedAt, pages),
    async close() {
      await writer.close().catch(() => undefined)
      await fallback?.close()
    }
  }
}
