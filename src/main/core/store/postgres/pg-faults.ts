// Faults of the database, not of a query, in words: PostgreSQL unreachable, shutting down, out of
// disk or connections. They come out as the cache's StorageError (kind 'storage'), naming the
// database without its password, as SQLite's faults name the file (storage-faults.ts).
import { StorageError } from '../../storage-faults'

/** SQLSTATE classes and codes that say something about the server, not the statement. */
function wordsFor(code: string, database: string): string | undefined {
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
    return `cannot reach the PostgreSQL server of ${database} (${code}): is it running, and is the URL (--db or EVENTWATCH_DB) right?`
  }
  if (code.startsWith('08')) return `the connection to ${database} failed (PostgreSQL ${code}): is the server running?`
  if (code === '57P01' || code === '57P02' || code === '57P03') return `the PostgreSQL server of ${database} is shutting down or starting up (${code}): try again shortly`
  if (code === '53100') return `the disk of the PostgreSQL server of ${database} is full (53100): free some space on it`
  if (code === '53300') return `the PostgreSQL server of ${database} has no connection left (53300): raise max_connections or lower the servers' pool sizes`
  if (code === '28P01' || code === '28000') return `PostgreSQL refused the credentials for ${database} (${code}): check the user and password in the URL`
  if (code === '3D000') return `the database of ${database} does not exist (3D000): create it first (createdb)`
  return undefined
}

/** `error` as a StorageError naming `database` when it is a fault of the database, else undefined. */
export function pgFault(error: unknown, database: string): StorageError | undefined {
  if (error instanceof StorageError) return error
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return undefined
  const words = wordsFor(code, database)
  return words === undefined ? undefined : new StorageError(words, database, code)
}
