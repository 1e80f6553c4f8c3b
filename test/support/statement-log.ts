// Every SQL statement a cache runs from now on, as it runs, with its arguments: what a piece of the
// core reads and writes, seen on the real SQLite connection. Statements prepared before the log
// began are not seen (the store keeps its prepared statements), so start it before the core
// prepares any.
import type { Db } from '../../src/main/core/store/db'

const RUNS = ['run', 'get', 'all', 'iterate'] as const

/** One statement as it ran: its SQL (spaces folded) and the arguments it was bound to. */
export interface StatementCall {
  sql: string
  args: unknown[]
}

export interface StatementLog {
  ran: string[]
  calls: StatementCall[]
}

/** `into`: a log another connection writes to as well (a store's reader), in the order they run. */
export function logStatements(db: Db, into?: StatementLog): StatementLog {
  const log = into ?? { ran: [], calls: [] }
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const statement = prepare(sql)
    for (const name of RUNS) {
      const run = (statement[name] as (...args: unknown[]) => unknown).bind(statement)
      Object.defineProperty(statement, name, {
        value: (...args: unknown[]) => {
          const folded = sql.replace(/\s+/g, ' ').trim()
          log.ran.push(folded)
          log.calls.push({ sql: folded, args })
          return run(...args)
        }
      })
    }
    return statement
  }) as Db['prepare']
  return log
}
