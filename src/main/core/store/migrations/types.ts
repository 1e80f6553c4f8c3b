import type { Database } from 'better-sqlite3'

/** One schema step, from `version - 1` to `version`. */
export interface Migration {
  version: number
  name: string
  /**
   * Rebuilds a table that others reference (SQLite's twelve-step ALTER): foreign keys are off
   * for this step, and checked before it commits.
   */
  withoutForeignKeys?: boolean
  up(db: Database): void
}
