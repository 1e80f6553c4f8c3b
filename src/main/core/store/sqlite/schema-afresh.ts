// The cache's schema version read afresh, for a server's readiness (GET /readyz): a connection of
// its own, opened read-only through SQLite on the file the cache is named by, asked, and closed.
// The store's long-lived reader would keep answering from a file that was moved away or replaced
// under the server (it holds the old one open); a fresh open meets the file as the next process
// would. It goes through SQLite, which keeps this process's locks on the file when it closes.
import Database from 'better-sqlite3'
import { notADatabase, storageFault } from '../../storage-faults'
import { latestSchema, schemaVersion } from '../migrate'
import type { SchemaCheck } from '../interface/store'

/** How long the probe waits for a lock another program holds: it runs on the server's one thread. */
const PROBE_BUSY_MS = 1000

export function schemaAfresh(file: string, nativeBinding?: string): SchemaCheck {
  let db: Database.Database | undefined
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: PROBE_BUSY_MS, ...(nativeBinding ? { nativeBinding } : {}) })
    return { found: schemaVersion(db), known: latestSchema() }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') throw notADatabase(file)
    throw storageFault(error, file) ?? error
  } finally {
    db?.close()
  }
}
