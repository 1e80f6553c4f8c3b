// What a cache file is, read from its first 100 bytes with plain file reads, before SQLite opens
// it: SQLite's first statement on a read-write connection may already write (switching to WAL
// rewrites the header and makes -wal/-shm files), and a file we refuse must stay as it was.
// The header's layout is SQLite's documented file format (sqlite.org/fileformat2.html).
import { closeSync, openSync, readSync } from 'node:fs'

export type CacheHeader =
  | { kind: 'new' } // no file yet, or an empty one: SQLite makes a database of it
  | { kind: 'not-sqlite' }
  | { kind: 'sqlite'; userVersion: number }

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1')
const HEADER_BYTES = 100
const USER_VERSION_OFFSET = 60

/** Throws what the file system says (EACCES, EISDIR…) when the file cannot be read. */
export function readCacheHeader(file: string): CacheHeader {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { kind: 'new' }
    throw error
  }
  try {
    const header = Buffer.alloc(HEADER_BYTES)
    const read = readSync(fd, header, 0, HEADER_BYTES, 0)
    if (read === 0) return { kind: 'new' }
    // SQLite refuses any non-empty file that does not start so (SQLITE_NOTADB).
    if (read < HEADER_BYTES || !header.subarray(0, MAGIC.length).equals(MAGIC)) return { kind: 'not-sqlite' }
    return { kind: 'sqlite', userVersion: header.readInt32BE(USER_VERSION_OFFSET) }
  } finally {
    closeSync(fd)
  }
}
