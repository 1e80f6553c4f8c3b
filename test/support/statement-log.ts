// Every SQL statement a cache runs from now on, as it runs, with its arguments: what a piece of the
// core reads and writes, seen on the real SQLite connection, and on every connection opened on the
// same file after the log began (the Store's reader). Statements prepared before the log began are
// not seen (the store keeps its prepared statements), so start it before the core prepares any.
import type { Db } from '../../src/main/core/store/db'

const RUNS = ['run', 'get', 'all', 'iterate'] as const

/** One statement as it ran: its SQL (spaces folded) and the arguments it was bound to. */
export interface StatementCall {
  sql: string
  args: unknown[]
}

type Log = { ran: string[]; calls: StatementCall[] }

export function logStatements(db: Db): Log {
  const log: Log = { ran: [], calls: [] }
  logOn(db, log)
  // Connections opened later on the file (one Db each): each is logged from its first prepare.
  const shared = Object.getPrototypeOf(db) as { prepare: Db['prepare'] }
  const prepareShared = shared.prepare
  const logged = new WeakSet<Db>([db])
  shared.prepare = function (this: Db, sql: string) {
    if (this.name !== db.name || logged.has(this)) return prepareShared.call(this, sql)
    logged.add(this)
    logOn(this, log)
    return this.prepare(sql)
  } as Db['prepare']
  return log
}

function logOn(db: Db, log: Log): void {
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
}
