// The PostgreSQL side of `store copy`: the database migrated by openPgStore (as a server would
// migrate it), refused unless empty, then filled in ONE transaction: every table's pages, the
// counts checked again, the sequences moved past the copied ids, and COMMIT — or ROLLBACK, which
// leaves the database as empty as it was found.
import type pg from 'pg'
import { StorageError } from '../../storage-faults'
import { pgFault } from '../postgres/pg-faults'
import { openPgStore } from '../postgres/pg-store'
import { openPool, redactedUrl } from '../postgres/pool'
import { targetValue } from './cell-values'
import { CopyFailedError, CopyRefusedError, quoted } from './copy-errors'

export interface TargetColumn {
  name: string
  /** PostgreSQL's name of its type (int8, float8, bool, jsonb, text…): a page goes as arrays of it. */
  type: string
  /** Computed by PostgreSQL itself (a generated column): never written. */
  generated: boolean
}

export interface TargetDatabase {
  /** The database, named without its password. */
  readonly database: string
  readonly schema: number
  /** Tables of the database's own schema. */
  tables(): Promise<string[]>
  columns(table: string): Promise<TargetColumn[]>
  /** Begins the copy's transaction: `tables` locked against other writers, refused unless empty. */
  begin(tables: readonly string[]): Promise<void>
  /** One page of rows, in `columns` order. */
  insert(table: string, columns: readonly TargetColumn[], rows: readonly unknown[][]): Promise<void>
  count(table: string): Promise<number>
  /** Every sequence of `table` (an identity column's) moved so that its next value is past the
   *  copied ids and past `floor` (the highest id SQLite ever gave, where it never reuses one). */
  moveSequencesPast(table: string, floor: number | null): Promise<void>
  commit(): Promise<void>
  /** Ends the transaction if one is open (rolled back) and closes the connection. */
  close(): Promise<void>
}

/** Opens `url` for a copy: refused unless every one of `tables` is empty (or absent), then
 *  migrated (openPgStore's migrations). */
export async function openTargetDatabase(url: string, tables: readonly string[]): Promise<TargetDatabase> {
  const database = redactedUrl(url)
  // Its one transaction awaits the cache's pages between statements: never ended for idling.
  const pool = openPool(url, { max: 1, idleInTransaction: true })
  let client: pg.PoolClient | undefined
  try {
    client = await pool.connect()
    // Before migrating: a database holding a team's data is refused as it is, not upgraded first.
    await refuseUnlessEmpty(client, database, tables)
    const store = await openPgStore(url, { poolSize: 2 })
    await store.close()
    const { schema } = (await client.query<{ schema: number }>('SELECT max(version) AS schema FROM schema_migrations')).rows[0]!
    return target(client, pool, database, schema)
  } catch (error) {
    client?.release()
    await pool.end()
    throw asTarget(pgFault(error, database) ?? error)
  }
}

/** A fault of the database as the copy's user typed it: the URL is --to's here, not --db's. */
function asTarget(error: unknown): unknown {
  if (error instanceof StorageError) error.message = error.message.replace('(--db or EVENTWATCH_DB)', '(--to)')
  return error
}

async function existing(client: pg.ClientBase, tables: readonly string[]): Promise<string[]> {
  const found = await client.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])',
    [tables]
  )
  const names = new Set(found.rows.map((row) => row.name))
  return tables.filter((table) => names.has(table))
}

async function refuseUnlessEmpty(client: pg.ClientBase, database: string, tables: readonly string[]): Promise<void> {
  const holding: string[] = []
  for (const table of await existing(client, tables)) {
    const { rows } = await client.query<{ some: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quoted(table)}) AS some`)
    if (rows[0]?.some) holding.push(table)
  }
  if (holding.length === 0) return
  const named = holding.length <= 3 ? holding.join(', ') : `${holding.slice(0, 3).join(', ')} and ${holding.length - 3} more tables`
  throw new CopyRefusedError(
    `${database} is not empty (it holds rows of ${named}): store copy fills only a new, empty database, so create one (createdb) and copy into it; nothing was changed`
  )
}

function target(client: pg.PoolClient, pool: pg.Pool, database: string, schema: number): TargetDatabase {
  let open = false
  return {
    database,
    schema,
    async tables() {
      const { rows } = await client.query<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1"
      )
      return rows.map((row) => row.name)
    },
    async columns(table) {
      const { rows } = await client.query<TargetColumn>(
        `SELECT column_name AS name, udt_name AS type, is_generated = 'ALWAYS' AS generated FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
        [table]
      )
      return rows
    },
    async begin(tables) {
      await client.query('BEGIN')
      open = true
      // A server started on the database meanwhile waits for the copy instead of writing beside it.
      await client.query(`LOCK TABLE ${tables.map(quoted).join(', ')} IN EXCLUSIVE MODE`)
      await refuseUnlessEmpty(client, database, tables)
    },
    async insert(table, columns, rows) {
      const names = columns.map((column) => quoted(column.name)).join(', ')
      const arrays = columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ')
      const values = columns.map((column, i) => rows.map((row) => targetValue(row[i], column.type, table, column.name)))
      await client.query(`INSERT INTO ${quoted(table)} (${names}) OVERRIDING SYSTEM VALUE SELECT * FROM unnest(${arrays})`, values)
    },
    async count(table) {
      return (await client.query<{ rows: number }>(`SELECT count(*) AS rows FROM ${quoted(table)}`)).rows[0]!.rows
    },
    async moveSequencesPast(table, floor) {
      const { rows } = await client.query<{ name: string; sequence: string }>(
        `SELECT column_name AS name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
           FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
        [table]
      )
      for (const { name, sequence } of rows) {
        const highest = (await client.query<{ id: number | null }>(`SELECT max(${quoted(name)}) AS id FROM ${quoted(table)}`)).rows[0]!.id
        const past = Math.max(highest ?? 0, floor ?? 0)
        // setval(…, n) makes the next value n + 1; an empty table keeps its sequence at its start.
        if (past > 0) await client.query('SELECT setval($1, $2)', [sequence, past])
      }
    },
    async commit() {
      await client.query('COMMIT')
      open = false
    },
    async close() {
      let broken: Error | undefined
      if (open) await client.query('ROLLBACK').catch((error: Error) => (broken = error))
      open = false
      client.release(broken)
      await pool.end()
    }
  }
}

/** A page PostgreSQL refused, in words: which table, which rows, what it said. */
export function refusedPage(error: unknown, table: string, first: number, last: number, database: string): Error {
  const fault = pgFault(error, database)
  if (fault) return fault
  const e = error as { message?: string; detail?: string }
  const said = [e.message, e.detail].filter(Boolean).join(' — ')
  return new CopyFailedError(
    `PostgreSQL refused a row of ${table} (rows ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of the cache's): ${said}; the copy was rolled back and the target is empty as before`
  )
}
