// The pg Pool of a PostgreSQL store, reading int8 (bigint ms, ids, count(*)) as numbers: the
// store's values are JavaScript numbers on SQLite too, and every instant and id fits in 2^53.
import { hostname } from 'node:os'
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
  /** Its transactions may await other work between statements (`store copy` reads the SQLite
   *  cache a page at a time inside its one transaction): never ended for idling. */
  idleInTransaction?: boolean
}

/** How a server's sessions are named in pg_stat_activity: which process of the team each is
 *  (the pid first: PostgreSQL keeps 63 bytes), unless the URL names them (?application_name=…). */
const applicationName = (): string => `eventwatch ${process.pid}@${hostname()}`.slice(0, 63)

/**
 * A transaction that writes awaits only the database (docs/store.md, rule 1): its session idle
 * inside it for this long means its process stalled (a frozen VM, SIGSTOP). PostgreSQL then ends
 * the session, and the locks it held go with it — a stalled lease holder's FOR SHARE on its lease,
 * its viewer list's, its revision's — instead of holding up every other server until it wakes.
 * Read-only units, which may await a slow reader between pages, opt out (READ_ONLY_MAY_IDLE).
 */
export const STALLED_TRANSACTION_ENDS_AFTER_MS = 5_000
export const READ_ONLY_MAY_IDLE = 'SET LOCAL idle_in_transaction_session_timeout = 0'

export function openPool(url: string, options: PoolOptions = {}): pg.Pool {
  const named = URL.canParse(url) && new URL(url).searchParams.has('application_name')
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    idle_in_transaction_session_timeout: options.idleInTransaction ? 0 : STALLED_TRANSACTION_ENDS_AFTER_MS,
    ...(named ? {} : { application_name: applicationName() })
  })
  // An idle client whose server went away: pg emits 'error' on the pool, which would otherwise
  // end the process; the next query reconnects (or fails, in words, to its caller).
  pool.on('error', () => undefined)
  return pool
}
