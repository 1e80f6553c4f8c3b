// Every row of a table, read straight from the database (a third party's reading, not the Store's),
// in one comparable shape on both backends: PostgreSQL's booleans as SQLite's 0/1, its jsonb and
// SQLite's JSON text as the values they hold, rows sorted. A copy holds the same rows as its cache.
import Database from 'better-sqlite3'
import pg from 'pg'

const INT8 = 20
const asNumbers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser
}

type Row = Record<string, unknown>
const sorted = (rows: Row[]): Row[] => rows.map((row) => [JSON.stringify(row), row] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)

/** A table PostgreSQL keys otherwise: a query on each side giving the same columns, in an order
 *  both must share (compared as they come, not sorted). */
export interface ReadAlike {
  sqlite: string
  postgres: string
}

const VIEWER_FIELDS = `viewer_id, device_type, os, app, reliability_score, rebuffering_events, rebuffering_time, viewing_time,
  started_at, ended_at, cdn_traffic, ecdn_traffic, cdn_responses, cdn_errors, raw_json`
const CONNECTION_FIELDS = 'c.position, c.connection_started, c.public_ip, c.private_ip, c.type_json, c.proxy_json, c.site_code'

/** The viewer tables, which PostgreSQL keys by (list_id, ordinal) where SQLite has viewer ids:
 *  each list's viewers in the order SQLite gave their ids and PostgreSQL their ordinals, each
 *  network connection under its list and viewer. */
export const VIEWERS_ALIKE: Record<string, ReadAlike> = {
  viewers: {
    sqlite: `SELECT list_id, ${VIEWER_FIELDS} FROM viewers ORDER BY list_id, id`,
    postgres: `SELECT list_id, ${VIEWER_FIELDS} FROM viewers ORDER BY list_id, ordinal`
  },
  viewer_connections: {
    sqlite: `SELECT v.list_id, v.viewer_id, ${CONNECTION_FIELDS} FROM viewer_connections c JOIN viewers v ON v.id = c.viewer
      ORDER BY v.list_id, v.id, c.position`,
    postgres: `SELECT v.list_id, v.viewer_id, ${CONNECTION_FIELDS} FROM viewer_connections c
      JOIN viewers v ON v.list_id = c.list_id AND v.ordinal = c.ordinal ORDER BY v.list_id, v.ordinal, c.position`
  }
}

/** Each table's rows, in PostgreSQL's copy and in the SQLite cache, shaped alike. */
export async function rowsOnBoth(
  file: string,
  url: string,
  tables: readonly string[],
  alike: Record<string, ReadAlike> = {}
): Promise<{ sqlite: Record<string, Row[]>; postgres: Record<string, Row[]> }> {
  const client = new pg.Client({ connectionString: url, types: asNumbers })
  await client.connect()
  const cache = new Database(file, { readonly: true })
  try {
    const sqlite: Record<string, Row[]> = {}
    const postgres: Record<string, Row[]> = {}
    for (const table of tables) {
      const types = await client.query<{ name: string; type: string }>(
        'SELECT column_name AS name, udt_name AS type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
        [table]
      )
      const json = new Set(types.rows.filter((c) => c.type === 'jsonb').map((c) => c.name))
      const flags = new Set(types.rows.filter((c) => c.type === 'bool').map((c) => c.name))
      const order = alike[table] ? (rows: Row[]) => rows : sorted
      postgres[table] = order(
        (await client.query<Row>(alike[table]?.postgres ?? `SELECT * FROM "${table}"`)).rows.map((row) =>
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, flags.has(k) && v !== null ? Number(v) : v]))
        )
      )
      sqlite[table] = order(
        (cache.prepare(alike[table]?.sqlite ?? `SELECT * FROM "${table}"`).all() as Row[]).map((row) =>
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, json.has(k) && typeof v === 'string' ? JSON.parse(v) : v]))
        )
      )
    }
    return { sqlite, postgres }
  } finally {
    cache.close()
    await client.end()
  }
}

/** Rows of each table in the PostgreSQL database. */
export async function countsIn(url: string, tables: readonly string[]): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url, types: asNumbers })
  await client.connect()
  try {
    const counts: Record<string, number> = {}
    for (const table of tables) counts[table] = (await client.query<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0]!.n
    return counts
  } finally {
    await client.end()
  }
}
