// Every SQL statement a cache runs from now on, as it runs: what a piece of the core reads and
// writes, seen on the real SQLite connection. Statements prepared before the log began are not
// seen (the store keeps its prepared statements), so start it before the core prepares any.
import type { Db } from '../../src/main/core/store/db'

const RUNS = ['run', 'get', 'all', 'iterate'] as const

export function logStatements(db: Db): { ran: string[] } {
  const log = { ran: [] as string[] }
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const statement = prepare(sql)
    for (const name of RUNS) {
      const run = (statement[name] as (...args: unknown[]) => unknown).bind(statement)
      Object.defineProperty(statement, name, {
        value: (...args: unknown[]) => {
          log.ran.push(sql.replace(/\s+/g, ' ').trim())
          return run(...args)
        }
      })
    }
    return statement
  }) as Db['prepare']
  return log
}
