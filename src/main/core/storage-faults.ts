// Local faults of the cache file in words: what SQLite (better-sqlite3) or the file system said,
// turned into one sentence that names the file and says what to do. These are never the
// service's fault, and a NOC operator fixes them on this machine (free space, a writable
// folder, another --db), so they have a kind of their own: 'storage'.
//
// Pure words plus a few read-only probes (access, stat); below api and store, so both can
// describe a fault (api/describe-error.ts for what escapes a sync, store/db.ts at open).
import { accessSync, constants, statfsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

/** A fault of the cache file; `code` is SQLite's (SQLITE_FULL…) or the file system's (EROFS…). */
export class StorageError extends Error {
  readonly kind = 'storage'
  constructor(
    message: string,
    readonly file: string | undefined,
    readonly code: string
  ) {
    super(message)
    this.name = 'StorageError'
  }
}

const ELSEWHERE = 'use another cache file (--db FILE or EVENTWATCH_DB)'
const UNKNOWN_FILE = 'the cache file'

/** Not a SQLite file: refused before SQLite writes anything. */
export function notADatabase(file: string): StorageError {
  return new StorageError(
    `${file} is not an Eventwatch cache (not a SQLite database): move it away or ${ELSEWHERE}; the file was not changed`,
    file,
    'SQLITE_NOTADB'
  )
}

/** Written by a later schema than this build's migrations: refused before anything is written. */
export function schemaTooNewWords(file: string, found: number, known: number): string {
  return `${file} was written by a newer Eventwatch (schema ${found}, this build knows ${known}): upgrade Eventwatch or ${ELSEWHERE}; the file was not changed`
}

/** File-system codes, taken as the cache's only where the caller knows they came from the cache file. */
const FS_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'EIO', 'ENOENT'])

/** The code of an error that is a storage fault, or undefined; `ofCache`: it came from using the cache file. */
function storageCode(error: unknown, ofCache: boolean): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  if (code.startsWith('SQLITE_')) return describes(code) ? code : undefined
  return ofCache && FS_CODES.has(code) ? code : undefined
}

/** SQLite codes that say something about the file, the disk or a lock (not a bug in a query). */
function describes(code: string): boolean {
  return /^SQLITE_(FULL|READONLY|CANTOPEN|NOTADB|CORRUPT|IOERR|BUSY|PERM|PROTOCOL|NOLFS)/.test(code)
}

/**
 * `error` as a StorageError naming `file` (else the one cache file this process uses), or
 * undefined when it is no storage fault. Without `file`, only SQLite's codes count (a file
 * system error could be any file's); a StorageError is returned as it is.
 */
export function storageFault(error: unknown, file?: string): StorageError | undefined {
  if (error instanceof StorageError) return error
  const code = storageCode(error, file !== undefined)
  if (!code) return undefined
  const named = file ?? cacheFileInUse()
  return new StorageError(wordsFor(code, named), named, code)
}

function wordsFor(code: string, file: string | undefined): string {
  const f = file ?? UNKNOWN_FILE
  const full = `the disk holding ${f} is full: free some space or ${ELSEWHERE}`
  if (/^SQLITE_FULL|^ENOSPC|^EDQUOT/.test(code)) return full
  if (code.startsWith('SQLITE_NOTADB')) return notADatabase(f).message
  if (code.startsWith('SQLITE_CORRUPT')) {
    return `${f} is damaged (SQLite found it malformed): move it away and Eventwatch starts a new cache, or restore it from a backup`
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return `${f} is locked by another program (still busy after waiting): close the other program using it (another Eventwatch?) or ${ELSEWHERE}`
  }
  if (code === 'EISDIR') return `${f} is a folder, not a file: ${ELSEWHERE}`
  if (/^SQLITE_IOERR|^SQLITE_PROTOCOL|^SQLITE_NOLFS|^EIO/.test(code)) {
    if (file && diskIsFull(file)) return full
    return `reading or writing ${f} failed (${code}, an error of the disk or its file system): check the disk, or ${ELSEWHERE}`
  }
  // Read-only, permission, cannot open: the file system says which.
  return file ? whyNotWritable(file, code) : `${f} cannot be opened or written (${code}): make it writable, or ${ELSEWHERE}`
}

/** Asks the file system why `file` cannot be opened or written: a read-only mount, permissions, a missing folder. */
function whyNotWritable(file: string, code: string): string {
  const own = probe(file)
  if (own.directory) return `${file} is a folder, not a file: ${ELSEWHERE}`
  const target = own.exists ? file : nearestExisting(dirname(file))
  const found = target === file ? own : probe(target)
  if (found.writeError === 'EROFS') return `${file} is on a read-only file system: remount it read-write or ${ELSEWHERE}`
  if (found.writeError === 'EACCES' || found.writeError === 'EPERM') {
    return `${file} is not writable by this user (permission denied on ${target}): fix the permissions or ${ELSEWHERE}`
  }
  if (target !== file && found.exists && !found.directory) return `${file} cannot be created: ${target} is a file, not a folder; ${ELSEWHERE}`
  if (!own.exists) return `${file} does not exist: check the path (--db FILE or EVENTWATCH_DB)`
  if (/READONLY|EROFS/.test(code)) return `${file} is on a read-only file system or not writable: make it writable or ${ELSEWHERE}`
  return `${file} cannot be opened (${code}): check that it and its folder are writable, or ${ELSEWHERE}`
}

interface Probe {
  exists: boolean
  directory: boolean
  /** Why writing is refused (EROFS, EACCES, EPERM…), if it is. */
  writeError?: string
}

/** What stops writing `path`, found without writing: access(W_OK) reports EROFS even to root. */
function probe(path: string): Probe {
  let directory: boolean
  try {
    directory = statSync(path).isDirectory()
  } catch {
    return { exists: false, directory: false }
  }
  try {
    accessSync(path, constants.W_OK)
    return { exists: true, directory }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return { exists: true, directory, writeError: typeof code === 'string' ? code : 'unknown' }
  }
}

function nearestExisting(path: string): string {
  for (let p = path; ; p = dirname(p)) {
    if (probe(p).exists || dirname(p) === p) return p
  }
}

function diskIsFull(file: string): boolean {
  try {
    return statfsSync(dirname(file)).bavail === 0
  } catch {
    return false
  }
}

// The cache files of this process, so that a fault that escapes a write (an error with SQLite's
// code and words only, maybe caught after the file was closed) can still name its file. One in
// practice: the CLI's or the app's.
const openCaches = new Set<{ readonly name: string; readonly open: boolean }>()
const everOpened = new Set<string>()

/** Called by the store for each connection it opens; closed ones are dropped as they are seen. */
export function rememberCacheFile(db: { readonly name: string; readonly open: boolean }): void {
  openCaches.add(db)
  if (everOpened.size < 2) everOpened.add(db.name) // two are as ambiguous as many
  cacheFileInUse()
}

/** The one cache file open in this process, else the only one it ever opened; undefined when that is not one file. */
export function cacheFileInUse(): string | undefined {
  const names = new Set<string>()
  for (const db of openCaches) {
    if (db.open) names.add(db.name)
    else openCaches.delete(db)
  }
  const only = names.size > 0 ? names : everOpened
  return only.size === 1 ? [...only][0] : undefined
}
