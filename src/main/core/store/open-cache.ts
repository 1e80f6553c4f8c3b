// The cache a core runs on, opened from what `--db` names (cache-location.ts): a SQLite file or a
// PostgreSQL database, behind the one Store. With it come the few things that differ by backend
// and that only the core's composition asks for: where the pollers' viewer lists are written, and
// what retention gives back after it prunes.
import { isPostgresUrl } from './cache-location'
import type { CompactResult } from './compact'
import type { Fence } from './interface/leases'
import type { Store } from './interface/store'
import { leaseGuard } from './postgres/lease-table'
import { openPgStore, type PgStore } from './postgres/pg-store'
import { pgViewerListStore } from './postgres/viewer-list-store'
import { purgeSteps } from './postgres/viewer-purge'
import { sqliteCompaction } from './sqlite/compaction'
import { openSqliteStore } from './sqlite/sqlite-store'
import { viewerStoreOnWriter, type ViewerListStore } from './viewer-store'
import { viewerStoreWithFallback } from './viewer-store-fallback'

export interface ViewerListOptions {
  /** Lists stored off this thread where the backend can (SQLite's writer thread): a polling core. */
  offThread: boolean
  /** The writer thread stopped and lists go on being stored here: why, in words. */
  onFallback: (reason: string) => void
  /** Where servers share the connections by lease (PostgreSQL): this server's lease of a
   *  connection, which every write of its lists is fenced with (null: it holds none). */
  fenceOf?: (connectionId: string) => Fence | null
}

/** Where the pollers store viewer lists; on PostgreSQL it also drops the staged lists of a
 *  connection that another writer left behind (a new lease holder's takeover). */
export type PollersViewerLists = ViewerListStore & { dropAbandonedStagings?(connectionId: string): Promise<number> }

export interface OpenedCache {
  store: Store
  backend: 'sqlite' | 'postgres'
  /** The cache in words: the file, or the database's URL without its password. */
  name: string
  /** Where the pollers store viewer lists; closed by its caller. */
  viewerLists(options: ViewerListOptions): PollersViewerLists
  /** After a retention run: what gives space back, a step at a time (on PostgreSQL, the purge of
   *  the dropped lists' viewers; autovacuum does the rest). */
  compaction?: () => AsyncGenerator<void, CompactResult>
}

export interface OpenCacheOptions {
  /** A better-sqlite3 binary built for this runtime (the Electron app has its own). */
  nativeBinding?: string
}

/** Opens (and migrates) the cache `where` names. */
export async function openCache(where: string, options: OpenCacheOptions = {}): Promise<OpenedCache> {
  if (isPostgresUrl(where)) {
    const store = await openPgStore(where.trim())
    return {
      store,
      backend: 'postgres',
      name: store.database,
      // COPY on the store's pool, in this process: PostgreSQL writes in its own. Where servers
      // share the connections, each transaction of a list checks its connection's lease first.
      viewerLists: ({ fenceOf }) => pgViewerListStore(store, fenceOf ? { guard: leaseGuard(fenceOf) } : {}),
      compaction: () => droppedListsPurged(store)
    }
  }
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}
  const store = openSqliteStore(where, binding)
  return {
    store,
    backend: 'sqlite',
    name: where,
    // On the cache writer's thread (its own connection): a list of a million viewers never blocks
    // this one. A core that polls nothing (one CLI change) stores here, without a thread.
    viewerLists: ({ offThread, onFallback }) => {
      const inThread = (): ViewerListStore => viewerStoreOnWriter((work) => store.onWriter(work))
      return offThread ? viewerStoreWithFallback({ file: where, ...binding }, inThread, onFallback) : inThread()
    },
    compaction: () => sqliteCompaction(store)
  }
}

/** PostgreSQL's compaction after a prune: the viewers of the lists it dropped (their rows stay
 *  until purged: postgres/viewer-purge.ts), a batch a step; autovacuum gives the space back. */
async function* droppedListsPurged(store: PgStore): AsyncGenerator<void, CompactResult> {
  const steps = purgeSteps(store)
  while (!(await steps.next()).done) yield
  return { freePages: 0, pagesBefore: 0, pagesAfter: 0, vacuum: 'none', checkpointed: false }
}
