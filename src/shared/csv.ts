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
//
// Every text cell, header cells included, is neutralised before it is quoted: the data comes from
// a service nobody here controls, and a spreadsheet runs a cell that starts with = + - @ TAB or
// CR as a formula. Such a cell gets a leading ' (OWASP's advice), which Excel shows as text.
// Numbers stay numbers (-3 is written -3). A ";"-joined array is one text cell, neutralised as a
// whole: a spreadsheet reads a formula only from a cell's first character.

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

/** The byte-order mark Excel needs to read a CSV as UTF-8 (never put before JSON). */
export const UTF8_BOM = '\uFEFF'

const FORMULA_LEAD = /^[=+\-@\t\r]/

/** Text a spreadsheet would run as a formula, with a leading ' so it shows as text. */
export function neutralise(text: string): string {
  return FORMULA_LEAD.test(text) ? `'${text}` : text
}

/** One cell: text neutralised, then quoted when RFC 4180 requires it (comma, quote, CR or LF inside). */
export function csvCell(value: Cell | undefined): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'string' ? neutralise(value) : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A column in the order being built: a singly linked list, so an insertion costs nothing. */
interface ColumnNode {
  name: string
  next: ColumnNode | null
}

/**
 * Collects the columns of records as they go by, in the order described at the top, in time
 * linear in the columns. The rule, stated on paths of segments: a new column goes right after
 * the last column that starts with the longest of its own parent paths that any column starts
 * with (or at the end when none does). So only "the last column under each path" is needed, and
 * it changes only along the new column's own paths (see addColumn).
 */
export class CsvColumns {
  private readonly head: ColumnNode = { name: '', next: null }
  private tail = this.head
  private readonly known = new Set<string>()
  /** Path ("a", "a.b", … every prefix of a column, the column itself included) → its last column. */
  private readonly lastUnder = new Map<string, ColumnNode>()

  add(record: Record<string, unknown>): void {
    for (const column of flattenRecord(record).keys()) this.addColumn(column)
  }

  list(): string[] {
    const columns: string[] = []
    for (let node = this.head.next; node !== null; node = node.next) columns.push(node.name)
    return columns
  }

  private addColumn(column: string): void {
    if (this.known.has(column)) return
    this.known.add(column)
    // paths[j]: the first j + 1 segments; the last one is the column itself.
    const paths: string[] = []
    for (let dot = column.indexOf('.'); dot !== -1; dot = column.indexOf('.', dot + 1)) paths.push(column.slice(0, dot))
    paths.push(column)
    let shared = paths.length - 1 // parent paths only: a column never goes under itself
    while (shared > 0 && !this.lastUnder.has(paths[shared - 1]!)) shared--
    const after = shared > 0 ? this.lastUnder.get(paths[shared - 1]!)! : this.tail
    const node: ColumnNode = { name: column, next: after.next }
    after.next = node
    if (after === this.tail) this.tail = node
    // Every column under the shared paths is at or before `after`, so the new column becomes
    // their last exactly when `after` was. No column is under the longer paths, except the
    // column's own (its descendants, all under the shared path, so before it): it is their last.
    for (let j = 0; j < paths.length; j++) {
      if (j >= shared || this.lastUnder.get(paths[j]!) === after) this.lastUnder.set(paths[j]!, node)
    }
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
