// What `--db` (or EVENTWATCH_DB) names, decided in one place: a `postgres://` or `postgresql://`
// URL is a PostgreSQL database; anything else is the path of a SQLite cache file.

export const isPostgresUrl = (where: string): boolean => /^postgres(ql)?:\/\//i.test(where.trim())

/** The desktop's cache: the file EVENTWATCH_DB names, else its own; a PostgreSQL URL there is a
 *  team server's database, and a desk keeps its own file (it joins a team server instead). */
export const deskCacheFile = (named: string | undefined, own: string): string => (named && !isPostgresUrl(named) ? named : own)
