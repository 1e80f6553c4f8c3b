// RFC 4180 CSV from JSON-like records, nested values flattened into columns of their own:
//
//   - an object becomes dotted columns:            type.kind, type.name
//   - an array of scalars becomes one cell, ";"-joined:  proxy → "10.0.0.1:8080;10.0.0.2:8080"
//   - any other array becomes indexed columns:     networkConnections.0.publicIp, ….1.publicIp
//   - null and empty arrays give an empty cell; empty objects and undefined give no column
//
// Columns appear in first-seen order, except that a new column is placed right after the
// existing columns it shares the longest path with, so networkConnections.1.* follows
// networkConnections.0.* rather than trailing after the last top-level field.
//
// Large exports are written in two passes over the data: one to learn the columns (the header
// must come first), one to write the rows as they come (csvLines); toCsv does both in memory.

type Cell = string | number | boolean | null
type Row = Map<string, Cell>

const isScalar = (v: unknown): v is Cell =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

function flattenInto(row: Row, path: string, value: unknown): void {
  if (value === undefined) return
  if (isScalar(value)) {
    row.set(path, value)
  } else if (Array.isArray(value)) {
    if (value.every(isScalar)) row.set(path, value.map((v) => (v === null ? '' : String(v))).join(';'))
    else value.forEach((item, i) => flattenInto(row, `${path}.${i}`, item))
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flattenInto(row, path === '' ? key : `${path}.${key}`, item)
  } else {
    row.set(path, String(value)) // bigint and the like: not JSON, but not lost either
  }
}

/** One record as column → value, nested values flattened (see the top of this file). */
export function flattenRecord(record: Record<string, unknown>): Row {
  const row: Row = new Map()
  flattenInto(row, '', record)
  return row
}

/** Quotes a cell when RFC 4180 requires it (comma, quote, CR or LF inside). */
export function csvCell(value: Cell | undefined): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** How many of the new column's parent segments the existing column starts with. */
const sharedParents = (added: string[], existing: string[]): number => {
  let n = 0
  while (n < added.length - 1 && n < existing.length && added[n] === existing[n]) n++
  return n
}

/** Collects the columns of records as they go by, in the order described at the top. */
export class CsvColumns {
  private readonly columns: string[] = []
  private readonly known = new Set<string>()

  add(record: Record<string, unknown>): void {
    for (const column of flattenRecord(record).keys()) this.addColumn(column)
  }

  list(): string[] {
    return [...this.columns]
  }

  private addColumn(column: string): void {
    if (this.known.has(column)) return
    this.known.add(column)
    const path = column.split('.')
    let at = this.columns.length
    let best = 0
    this.columns.forEach((existing, i) => {
      const shared = sharedParents(path, existing.split('.'))
      if (shared > 0 && shared >= best) {
        best = shared
        at = i + 1
      }
    })
    this.columns.splice(at, 0, column)
  }
}

/** The columns of `records`; `whenEmpty` is the header to print when there are none. */
export function csvColumns(records: Iterable<Record<string, unknown>>, whenEmpty: readonly string[] = []): string[] {
  const columns = new CsvColumns()
  let any = false
  for (const record of records) {
    columns.add(record)
    any = true
  }
  return any ? columns.list() : [...whenEmpty]
}

/** The header line, then one line per record, each ending in CRLF: write them as they come. */
export function* csvLines(records: Iterable<Record<string, unknown>>, columns: readonly string[]): Generator<string> {
  yield `${columns.map(csvCell).join(',')}\r\n`
  for (const record of records) {
    const row = flattenRecord(record)
    yield `${columns.map((c) => csvCell(row.get(c))).join(',')}\r\n`
  }
}

/** The whole CSV text of an in-memory list of records. */
export function toCsv(records: readonly Record<string, unknown>[], whenEmpty: readonly string[] = []): string {
  return [...csvLines(records, csvColumns(records, whenEmpty))].join('')
}
