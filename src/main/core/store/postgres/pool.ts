// The pg Pool of a PostgreSQL store, reading int8 (bigint ms, ids, count(*)) as numbers: the
// store's values are JavaScript numbers on SQLite too, and every instant and id fits in 2^53.
import pg from 'pg'

export { redactedUrl } from '../cache-location'

const INT8 = 20

function parseInt8(text: string): number {
  const value = Number(text)
  // A value past 2^53 would come back silently wrong: say so instead.
  if (!Number.isSafeInteger(value)) throw new Error(`an int8 value (${text}) is past what a JavaScript number holds exactly`)
  return value
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser
}

export interface PoolOptions {
  /** Clients kept open; a unit holds one from BEGIN to COMMIT. */
  max?: number
}

export function openPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types })
  // An idle client whose server went away: pg emits 'error' on the pool, which would otherwise
  // end the process; the next query reconnects (or fails, in words, to its caller).
  pool.on('error', () => undefined)
  return pool
}
