// A copy of the cache while Eventwatch runs, through SQLite's online backup API: the source is
// read in one read transaction (a snapshot: writers go on, and the copy never restarts because
// of them), a few megabytes per step so a stop is obeyed between steps. The copy is written
// beside its destination, checked, made a single self-contained file (rollback journal, no
// -wal), then renamed into place: a backup is whole or absent, never half.
import Database from 'better-sqlite3'
import { closeSync, existsSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { throwIfAborted } from '../net/abort'
import { storageFault } from '../storage-faults'
import { openDatabase } from './db'

/** Pages per step: 1,024 pages of 4 KiB, a few milliseconds each. */
const PAGES_PER_STEP = 1024

export interface BackupOptions {
  /** Replace a file already at the destination. */
  overwrite?: boolean
  signal?: AbortSignal
  nativeBinding?: string
}

export interface BackupResult {
  file: string
  pages: number
  bytes: number
}

/** Something about the destination the user fixes (an existing file, the cache itself). */
export class BackupRefusedError extends Error {
  readonly kind = 'configuration'
}

export async function backupCache(cacheFile: string, destination: string, options: BackupOptions = {}): Promise<BackupResult> {
  const target = resolve(destination)
  refuseDestination(cacheFile, target, options.overwrite ?? false)
  throwIfAborted(options.signal)
  const partial = `${target}.partial`
  removeWithSidecars(partial) // left by a backup that was killed
  const source = openDatabase(cacheFile, { readonly: true, nativeBinding: options.nativeBinding })
  try {
    // Only this user may read the copy, as the cache: made 0600 before SQLite writes into it.
    // (It is not the cache file: opening and closing it here drops no lock of ours.)
    closeSync(openSync(partial, 'wx', 0o600))
    source.exec('BEGIN')
    source.prepare('SELECT count(*) FROM sqlite_schema').get() // the snapshot starts here
    const done = await source.backup(partial, {
      progress: () => {
        throwIfAborted(options.signal)
        return PAGES_PER_STEP
      }
    })
    source.exec('COMMIT')
    finishCopy(partial, options.nativeBinding)
    renameSync(partial, target)
    return { file: target, pages: done.totalPages, bytes: statSync(target).size }
  } catch (error) {
    removeWithSidecars(partial)
    throw storageFault(error, partial) ?? error
  } finally {
    source.close()
  }
}

function refuseDestination(cacheFile: string, target: string, overwrite: boolean): void {
  if (!existsSync(target)) return
  if (realpathSync(target) === realpathSync(cacheFile)) {
    throw new BackupRefusedError(`${target} is the cache itself: give the backup another file name`)
  }
  if (!overwrite) throw new BackupRefusedError(`${target} exists already: choose another file name, or add --force to replace it`)
}

/** The copy as one file (no -wal beside it), checked page by page before it takes the name. */
function finishCopy(file: string, nativeBinding: string | undefined): void {
  const copy = new Database(file, nativeBinding ? { nativeBinding } : {})
  try {
    copy.pragma('journal_mode = DELETE')
    const check = copy.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`the copy did not pass SQLite's quick_check (${String(check)}); it was removed`)
  } finally {
    copy.close()
  }
}

function removeWithSidecars(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(path, { force: true })
}
