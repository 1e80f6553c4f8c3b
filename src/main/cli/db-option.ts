// `--db`, as every command that opens the cache takes it: a SQLite file (the desktop app's by
// default; EVENTWATCH_DB overrides the default) or a PostgreSQL database's postgres:// URL
// (core/store/cache-location.ts decides which). A URL is never printed with its password.
import { cacheName, isPostgresUrl } from '../core/store/cache-location'
import { CliError } from './errors'

export const DB_HELP = "the cache: a SQLite file (default: the desktop app's) or a postgres:// URL; EVENTWATCH_DB sets the default"

/** The cache as the command's output names it: the file, or the URL without its password. */
export { cacheName }

/** Refuses a postgres:// URL for what only a SQLite file can do, saying what to use instead. */
export function sqliteFileOnly(db: string, what: string, instead: string): void {
  if (isPostgresUrl(db)) throw new CliError(`${what} works on a SQLite cache file, not on ${cacheName(db)}: ${instead}.`)
}
