// `eventwatch store copy`: a SQLite cache into an empty PostgreSQL database, ids kept, so a team
// grows from one server to several without losing its history (docs/store-copy.md).
//
// All or nothing: the source is read in one read transaction (one snapshot, while a running
// Eventwatch goes on writing it) and the target written in one transaction, committed only after
// every table's rows were counted again in it. Memory holds one page of rows at a time.
import { throwIfAborted } from '../../net/abort'
import { COPIED_TABLES, isSqliteInternal, type CopiedTable } from './copy-plan'
import { CopyFailedError, CopyRefusedError } from './copy-errors'
import { checkSealedColumns, keptSecrets, SEALED_TABLE, sealFromKeychain, type SecretsToSeal } from './keychain-secrets'
import { openSourceCache, refuseMissingSource, type SourceCache } from './source-cache'
import { openTargetDatabase, refusedPage, type TargetColumn, type TargetDatabase } from './target-database'

/** Rows a page: what memory holds at once (a viewer row with its raw record is a few KB). */
export const COPY_PAGE_ROWS = 1000

export interface TableCopied {
  table: string
  rows: number
  /** Rows PostgreSQL cannot hold, left out (the plan says why). */
  leftOut: number
  why?: string
}

export interface CopyProgress {
  table: string
  done: number
  total: number
}

export interface CopyResult {
  from: string
  /** The target, named without its password. */
  to: string
  /** The source's schema before the copy; below `schema`, it was migrated first. */
  foundSchema: number
  schema: number
  tables: TableCopied[]
  secrets: SecretsCopied
}

export interface SecretsCopied {
  /** Sealed into the database under the key file. */
  sealed: number
  /** The secrets of the copied connections and webhooks not sealed, in words: every one without a
   *  key file (they stayed in this machine's keychain), those the keychain lacked with one. */
  notSealed: string[]
}

export interface CopyOptions {
  signal?: AbortSignal
  pageRows?: number
  onProgress?: (progress: CopyProgress) => void
  /** With a key file: the keychain's secrets of the copied connections and webhooks, sealed into
   *  the database in the copy's transaction. Without, they stay in the keychain. */
  secrets?: SecretsToSeal
}

interface TableWork {
  plan: CopiedTable
  /** The source's columns, in the order pages carry them, and the target's column for each. */
  sourceColumns: string[]
  targetColumns: TargetColumn[]
}

export async function copyCacheToPostgres(file: string, url: string, options: CopyOptions = {}): Promise<CopyResult> {
  const { signal } = options
  throwIfAborted(signal)
  refuseMissingSource(file)
  // The target first: one that is unreachable or not empty is refused before the cache is touched.
  const filled = [...COPIED_TABLES.map((table) => table.name), SEALED_TABLE]
  const target = await openTargetDatabase(url, filled)
  try {
    throwIfAborted(signal)
    const source = openSourceCache(file)
    try {
      const work = await plannedWork(source, target)
      const sealedColumns = await target.columns(SEALED_TABLE)
      checkSealedColumns(sealedColumns)
      // Read from the keychain before the transaction: nothing waits on it while tables are locked.
      const kept = keptSecrets(source)
      const sealed = options.secrets
        ? await sealFromKeychain(kept, options.secrets, sealedColumns, Date.now())
        : { rows: [], missing: kept.map((secret) => secret.what) }
      throwIfAborted(signal)
      await target.begin(filled)
      const tables: TableCopied[] = []
      for (const table of work) tables.push(await copyTable(source, target, table, options))
      if (sealed.rows.length > 0) await target.insert(SEALED_TABLE, sealedColumns, sealed.rows)
      await verifyCounts(target, [...tables, { table: SEALED_TABLE, rows: sealed.rows.length, leftOut: 0 }])
      for (const { table } of tables) await target.moveSequencesPast(table, source.highestIdEver(table))
      throwIfAborted(signal)
      await target.commit()
      const secrets = { sealed: sealed.rows.length, notSealed: sealed.missing }
      return { from: file, to: target.database, foundSchema: source.foundSchema, schema: source.schema, tables, secrets }
    } finally {
      source.close()
    }
  } finally {
    await target.close()
  }
}

/** Every table of the cache matched to the target's, column by column; anything unplanned refused. */
async function plannedWork(source: SourceCache, target: TargetDatabase): Promise<TableWork[]> {
  if (source.schema !== target.schema) {
    throw new CopyRefusedError(`${source.file} is at schema ${source.schema} and ${target.database} at ${target.schema}: both must be this build's; nothing was copied`)
  }
  const planned = new Set(COPIED_TABLES.map((table) => table.name))
  const unknown = source.tables().filter((table) => !isSqliteInternal(table) && !planned.has(table))
  if (unknown.length > 0) {
    throw new CopyRefusedError(
      `${source.file} holds tables store copy does not know (${unknown.join(', ')}): added by hand or by another program, they would be lost, so nothing was copied`
    )
  }
  const inSource = new Set(source.tables())
  const inTarget = new Set(await target.tables())
  const work: TableWork[] = []
  for (const plan of COPIED_TABLES) {
    if (!inSource.has(plan.name) || !inTarget.has(plan.name)) {
      throw new CopyRefusedError(`this build cannot copy ${plan.name}: it is missing from ${inSource.has(plan.name) ? target.database : source.file}; nothing was copied`)
    }
    work.push(matchColumns(plan, readable(source, plan), await target.columns(plan.name)))
  }
  return work
}

/** The columns the copy reads of a planned table: the cache's own, or what its reshaping gives. */
function readable(source: SourceCache, plan: CopiedTable): string[] {
  const columns = source.columns(plan.name)
  if (!plan.reshaped) return columns
  const unread = columns.find((name) => !plan.reshaped!.reads.includes(name))
  if (unread) throw new CopyRefusedError(`this build cannot copy ${plan.name}.${unread}: the copy does not read it into PostgreSQL's shape of the table; nothing was copied`)
  return source.selects(plan.reshaped.select)
}

function matchColumns(plan: CopiedTable, sourceColumns: string[], targetColumns: TargetColumn[]): TableWork {
  const derived = new Set(plan.derived ?? [])
  const byName = new Map(targetColumns.map((column) => [column.name, column]))
  const copied = sourceColumns.filter((name) => !derived.has(name))
  const matched = copied.map((name) => {
    const column = byName.get(name)
    if (!column || column.generated) throw new CopyRefusedError(`this build cannot copy ${plan.name}.${name}: the PostgreSQL schema has no column to take it; nothing was copied`)
    return column
  })
  const written = new Set(copied)
  const unfilled = targetColumns.find((column) => !column.generated && !written.has(column.name))
  if (unfilled) throw new CopyRefusedError(`this build cannot copy ${plan.name}: the cache has no ${unfilled.name} for PostgreSQL's column; nothing was copied`)
  return { plan, sourceColumns: copied, targetColumns: matched }
}

async function copyTable(source: SourceCache, target: TargetDatabase, work: TableWork, options: CopyOptions): Promise<TableCopied> {
  const { name, leftOut } = work.plan
  const kept = leftOut ? `NOT (${leftOut.where})` : undefined
  const total = source.count(name, kept)
  const left = leftOut ? source.count(name, leftOut.where) : 0
  let done = 0
  options.onProgress?.({ table: name, done, total })
  // A reshaped table gives one row for each of its own: counted as they are.
  const from = work.plan.reshaped ? { select: work.plan.reshaped.select } : { table: name }
  for (const page of source.pages(from, work.sourceColumns, options.pageRows ?? COPY_PAGE_ROWS, kept)) {
    throwIfAborted(options.signal)
    try {
      await target.insert(name, work.targetColumns, page)
    } catch (error) {
      throw refusedPage(error, name, done + 1, done + page.length, target.database)
    }
    done += page.length
    options.onProgress?.({ table: name, done, total })
  }
  // One snapshot: a count and a read of it can only disagree if the snapshot did not hold.
  if (done !== total) throw new CopyFailedError(`${source.file} gave ${done} rows of ${name} where it counted ${total}; the copy was rolled back and the target is empty as before`)
  return { table: name, rows: done, leftOut: left, ...(left > 0 && leftOut ? { why: leftOut.why } : {}) }
}

/** Each table counted again in the target, inside the transaction, before it commits. */
async function verifyCounts(target: TargetDatabase, tables: readonly TableCopied[]): Promise<void> {
  for (const { table, rows } of tables) {
    const found = await target.count(table)
    if (found !== rows) {
      throw new CopyFailedError(`${target.database} holds ${found} rows of ${table} where ${rows} were copied; the copy was rolled back and the target is empty as before`)
    }
  }
}
