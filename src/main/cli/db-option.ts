// `--db`, as every command that opens the cache takes it: a SQLite file (the desktop app's by
// default; EVENTWATCH_DB overrides the default) or a PostgreSQL database's postgres:// URL
// (core/store/cache-location.ts decides which). A URL is never printed with its password.
import { Option } from 'commander'
import { defaultDbFile } from '../core/paths'
import { cacheName, isPostgresUrl } from '../core/store/cache-location'
import { CliError } from './errors'

/** The cache as the command's output names it: the file, or the URL without its password. */
export { cacheName }

/**
 * The option, with its default said once in the help: the value it takes on this machine (the
 * desktop app's file, or EVENTWATCH_DB when set — its password hidden), not commander's quoted
 * default beside words that name another.
 */
export function dbOption(env: NodeJS.ProcessEnv = process.env): Option {
  const fallback = defaultDbFile(env)
  const said = env.EVENTWATCH_DB ? `${cacheName(fallback)}, from EVENTWATCH_DB` : `${fallback}, the desktop app's; EVENTWATCH_DB sets another`
  return new Option('--db <file|url>', 'the cache: a SQLite file or a postgres:// URL').default(fallback, said)
}

/** Refuses a postgres:// URL for what only a SQLite file can do, saying what to use instead. */
export function sqliteFileOnly(db: string, what: string, instead: string): void {
  if (isPostgresUrl(db)) throw new CliError(`${what} works on a SQLite cache file, not on ${cacheName(db)}: ${instead}.`)
}
