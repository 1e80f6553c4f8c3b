// One PostgreSQL schema step. Versions match SQLite's (store/migrations/): the baseline is SQLite
// schema 24, and every later change ships as a pair, a SQLite step and a PostgreSQL step of the
// same number (docs/scaling-plan.md, "Schema translation notes").
export interface PgMigration {
  version: number
  name: string
  /** Statements run in one transaction (PostgreSQL's DDL is transactional). */
  sql: string
}
