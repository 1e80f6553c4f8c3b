// What `--db` (or EVENTWATCH_DB) names, decided in one place: a `postgres://` or `postgresql://`
// URL is a PostgreSQL database; anything else is the path of a SQLite cache file.

export const isPostgresUrl = (where: string): boolean => /^postgres(ql)?:\/\//i.test(where.trim())

/** The desktop's cache: the file EVENTWATCH_DB names, else its own; a PostgreSQL URL there is a
 *  team server's database, and a desk keeps its own file (it joins a team server instead). */
export const deskCacheFile = (named: string | undefined, own: string): string => (named && !isPostgresUrl(named) ? named : own)

/** The URL without its password, to name the database in messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'the PostgreSQL database'
  }
}

/** The cache as messages name it: the file, or the database's URL without its password. */
export const cacheName = (where: string): string => (isPostgresUrl(where) ? redactedUrl(where.trim()) : where)
