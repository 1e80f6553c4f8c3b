// The cache writer's thread, with this thread as the fallback: should the writer fail to start
// (a runtime where its worker file or native binding cannot load) or stop, viewer lists go on
// being stored, here, and the reason is said once. The lists in hand when it stopped fail (and
// are fetched again at the next pass); every later one is stored.
import type { ViewerListStore } from './viewer-store'
import { startViewerWriter, type ViewerWriterOptions } from './viewer-writer'

export function viewerStoreWithFallback(
  options: ViewerWriterOptions,
  /** Where lists go once the writer has stopped: this thread's store (made then, once). */
  inThread: () => ViewerListStore,
  onFallback: (reason: string) => void
): ViewerListStore {
  let fallback: ViewerListStore | null = null
  const writer = startViewerWriter(options, {
    onBroken: (error) => {
      fallback ??= inThread()
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
