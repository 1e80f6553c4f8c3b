import type { Database } from 'better-sqlite3'

/** One schema step, from `version - 1` to `version`. */
export interface Migration {
  version: number
  name: string
  up(db: Database): void
}
