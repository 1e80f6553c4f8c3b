// The SQLite side of `store copy`: the cache opened through SQLite (never otherwise: a running
// Eventwatch shares the file, and its locks), brought to this build's schema first if it is older,
// then read in ONE read transaction: every count and every page comes from the same snapshot,
// while the running Eventwatch goes on writing (WAL: a reader blocks no writer, and none blocks it).
import { existsSync, statSync } from 'node:fs'
import { StorageError } from '../../storage-faults'
import { openDatabase, type Db } from '../db'
import { latestSchema, SchemaTooNewError, schemaVersion } from '../migrate'
import { CopyRefusedError, quoted } from './copy-errors'

/** Rows of a table as they are, or as a SELECT on the cache gives them. */
export type RowSource = { table: string } | { select: string }

export interface SourceCache {
  readonly file: string
  /** The schema the file was at before the copy; older than `schema` means it was migrated first. */
  readonly foundSchema: number
  readonly schema: number
  /** The cache's tables (SQLite's own included: the plan tells them apart). */
  tables(): string[]
  columns(table: string): string[]
  /** Rows of `table` in the snapshot; `where` picks some. */
  count(table: string, where?: string): number
  /** The highest id an AUTOINCREMENT table ever gave (ids never reused: viewer lists). */
  highestIdEver(table: string): number | null
  /** Every row a SELECT of a few rows gives (the connections, the webhooks), as objects. */
  few<R>(select: string): R[]
  /** The columns a SELECT on the cache gives, by name. */
  selects(select: string): string[]
  /** `columns` of every row of `from` (a table, or a SELECT of one reshaped) that `where` picks,
   *  `size` at a time, as arrays in column order; integers as BigInt, so none past 2^53 changes
   *  on the way. No other read may run on the cache while a page iteration is open. */
  pages(from: RowSource, columns: readonly string[], size: number, where?: string): Generator<unknown[][]>
  /** Ends the read transaction and closes the file. */
  close(): void
}

/** Opens `file` for a copy: refuses what is no Eventwatch cache, migrates an older one. */
export function openSourceCache(file: string): SourceCache {
  const foundSchema = schemaBeforeCopy(file)
  if (foundSchema < latestSchema()) openDatabase(file).close() // migrated, under SQLite's write lock
  const db = openDatabase(file, { readonly: true })
  try {
    db.exec('BEGIN')
    db.prepare('SELECT count(*) FROM sqlite_schema').get() // the snapshot starts at the first read
    return snapshot(db, file, foundSchema)
  } catch (error) {
    db.close()
    throw error
  }
}

/** A --from that is no file at all, refused before anything else is opened (a stat, not an open). */
export function refuseMissingSource(file: string): void {
  if (!existsSync(file)) throw new CopyRefusedError(`${file} does not exist: --from takes the SQLite cache file to copy`)
  if (!statSync(file).isFile()) throw new CopyRefusedError(`${file} is not a file: --from takes the SQLite cache file to copy`)
}

function schemaBeforeCopy(file: string): number {
  refuseMissingSource(file)
  let probe: Db
  try {
    probe = openDatabase(file, { readonly: true })
  } catch (error) {
    // In --from's words: the open's own name --db, which this command has not.
    if (error instanceof SchemaTooNewError) {
      throw new CopyRefusedError(`${error.message.replace(/: upgrade Eventwatch or .*$/, '')}: copy it with that Eventwatch or a newer one; the file was not changed`)
    }
    if (error instanceof StorageError && error.code === 'SQLITE_NOTADB') {
      throw new CopyRefusedError(`${file} is not an Eventwatch cache (not a SQLite database): check --from; the file was not changed`)
    }
    throw error
  }
  try {
    const version = schemaVersion(probe)
    // Schema 0 is a SQLite file Eventwatch never opened: migrating it would write our tables into
    // someone else's database.
    if (version === 0) throw new CopyRefusedError(`${file} is not an Eventwatch cache (a SQLite file Eventwatch never opened): check --from; the file was not changed`)
    return version
  } finally {
    probe.close()
  }
}

function snapshot(db: Db, file: string, foundSchema: number): SourceCache {
  const where = (clause?: string): string => (clause ? ` WHERE ${clause}` : '')
  return {
    file,
    foundSchema,
    schema: schemaVersion(db),
    tables: () => (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]),
    columns: (table) => (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[]),
    count: (table, clause) => db.prepare(`SELECT count(*) FROM ${quoted(table)}${where(clause)}`).pluck().get() as number,
    highestIdEver(table) {
      const kept = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_sequence'").pluck().get() as number
      if (kept === 0) return null
      return (db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table) as number | undefined) ?? null
    },
    few: <R>(select: string) => db.prepare(select).all() as R[],
    selects: (select) => db.prepare(select).columns().map((column) => column.name),
    *pages(from, columns, size, clause) {
      const rows = 'table' in from ? quoted(from.table) : `(${from.select}) AS reshaped`
      const select = db.prepare(`SELECT ${columns.map(quoted).join(', ')} FROM ${rows}${where(clause)}`)
      let page: unknown[][] = []
      for (const row of select.raw(true).safeIntegers(true).iterate() as IterableIterator<unknown[]>) {
        page.push(row)
        if (page.length === size) {
          yield page
          page = []
        }
      }
      if (page.length > 0) yield page
    },
    close() {
      try {
        if (db.inTransaction) db.exec('COMMIT')
      } finally {
        db.close()
      }
    }
  }
}
