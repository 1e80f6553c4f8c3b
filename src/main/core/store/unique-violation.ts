// A write refused by a unique index, as each backend says it: two writers that each checked a name
// was free before writing it (two servers of a team, the CLI beside a server) meet here, and the
// caller says "that name is taken" instead of the database's words.

const UNIQUE_VIOLATION_CODES: ReadonlySet<unknown> = new Set([
  'SQLITE_CONSTRAINT_UNIQUE', // better-sqlite3
  '23505' // PostgreSQL's unique_violation
])

export function isUniqueViolation(error: unknown): boolean {
  return UNIQUE_VIOLATION_CODES.has((error as { code?: unknown } | null)?.code)
}
