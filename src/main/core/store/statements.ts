// Prepared statements, compiled once per database and reused: the poller writes on every poll.
import type { Statement } from 'better-sqlite3'
import type { Db } from './db'

const cache = new WeakMap<Db, Map<string, Statement>>()

export function statement(db: Db, sql: string): Statement {
  let statements = cache.get(db)
  if (!statements) {
    statements = new Map()
    cache.set(db, statements)
  }
  let prepared = statements.get(sql)
  if (!prepared) {
    prepared = db.prepare(sql)
    statements.set(sql, prepared)
  }
  return prepared
}
