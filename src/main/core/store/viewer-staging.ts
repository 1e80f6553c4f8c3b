// A viewer list written page by page and swapped in whole. Issue 13: a list of a million viewers
// cannot wait in memory for its last page, so each page is its own transaction under a list row
// marked `staged_at` (migration 9), invisible to every reader; the last step, in one
// transaction, drops the list held before and unmarks the staged one. A crash or kill -9 leaves
// the old list held and a staged one nobody reads, dropped once untouched for an hour (at the
// next start, or when any list is next staged).
//
// A staging belongs to the one fetch that began it (issue 23): its own list row, whose id is
// never given to another (migration 19), and no other fetch drops it. Two fetches of one
// session's list — two pollers on one cache, in one process or two — each stage their own;
// the last whole list to commit is the one held.
//
// The stager lives wherever the database connection is: this thread (viewer-store.ts) or the
// cache writer's (viewer-writer-worker.ts). It also sums the breakdowns as the pages go by, so
// the list's breakdowns are kept with it, as before.
import type { Db } from './db'
import { breakdownOfRows } from './breakdown-of-rows'
import { emptyBreakdownSums, keepBreakdowns, type BreakdownSums } from './queries/breakdown'
import { statement } from './statements'
import { keepListSummary } from './viewer-list-summary'
import { CONNECTION_COLUMNS, CONNECTION_ROW_WIDTH, VIEWER_COLUMNS, VIEWER_ROW_WIDTH, type ViewerListRows } from './viewer-rows'

/** What the stager is asked to do; `key` names one staging, chosen by the caller. */
export type StageOp =
  | { type: 'begin'; key: number; connectionId: string; eventSessionId: string; at: number }
  | { type: 'page'; key: number; rows: ViewerListRows; at: number }
  /** `dedupe`: a viewer id may have come twice across pages; keep the last record of each. */
  | { type: 'commit'; key: number; fetchedAt: number; pages: number; dedupe: boolean }
  | { type: 'abandon'; key: number }

/** A staged list untouched this long belongs to a process that is gone. */
export const ABANDONED_AFTER_MS = 60 * 60_000

/** Rows per INSERT: one call into SQLite per batch rather than per row. */
const BATCH = 32

function insertSql(table: string, columns: string, params: number, rows: number): string {
  const row = `(${Array.from({ length: params }, () => '?').join(', ')})`
  return `INSERT INTO ${table} (${columns}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}`
}

/** Writes `values` (`width` per row) with multi-row INSERTs of up to BATCH rows each. */
function insertRows(db: Db, table: string, columns: string, width: number, values: unknown[]): void {
  const rows = values.length / width
  const full = BATCH * width
  let start = 0
  if (rows >= BATCH) {
    const insert = statement(db, insertSql(table, columns, width, BATCH))
    for (; values.length - start >= full; start += full) insert.run(values.slice(start, start + full))
  }
  const rest = (values.length - start) / width
  if (rest > 0) statement(db, insertSql(table, columns, width, rest)).run(start === 0 ? values : values.slice(start))
}

/** One staged list: its row, and the session it is of. */
export interface StagedList {
  id: number
  connectionId: string
  eventSessionId: string
}

interface Staging {
  list: StagedList
  sums: BreakdownSums
}

export class ViewerListStager {
  private readonly stagings = new Map<number, Staging>()

  constructor(private readonly db: Db) {}

  /** Applies one operation in its own transaction; a commit answers the viewers held. */
  apply(op: StageOp): number | undefined {
    switch (op.type) {
      case 'begin':
        this.stagings.set(op.key, { list: beginStagedList(this.db, op.connectionId, op.eventSessionId, op.at), sums: emptyBreakdownSums() })
        return undefined
      case 'page': {
        const staging = this.staging(op.key)
        stagePage(this.db, staging.list, op.rows, op.at, staging.sums)
        return undefined
      }
      case 'commit': {
        const staging = this.staging(op.key)
        const held = commitStagedList(this.db, staging.list, { fetchedAt: op.fetchedAt, pages: op.pages, dedupe: op.dedupe, sums: staging.sums })
        this.stagings.delete(op.key) // kept on failure, so that abandon drops what was staged
        return held
      }
      case 'abandon': {
        const staging = this.stagings.get(op.key)
        this.stagings.delete(op.key)
        if (staging) abandonStagedList(this.db, staging.list)
        return undefined
      }
    }
  }

  private staging(key: number): Staging {
    const staging = this.stagings.get(key)
    if (!staging) throw new Error(`no viewer list is being staged under key ${key}`)
    return staging
  }
}

/**
 * A new staged list for the session, fetched at `fetchedAt`; `now` (the machine's time, as every
 * page's) marks it touched. Other stagings of the session are other fetches' and stay; stagings
 * of any session untouched for ABANDONED_AFTER_MS (their process is gone) are dropped.
 */
export function beginStagedList(db: Db, connectionId: string, eventSessionId: string, fetchedAt: number, now = Date.now()): StagedList {
  return db.transaction(() => {
    dropAbandonedStagings(db, now)
    const id = statement(
      db,
      `INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages, staged_at)
       VALUES (?, ?, ?, 0, 0, ?)`
    ).run(connectionId, eventSessionId, fetchedAt, now).lastInsertRowid as number
    return { id, connectionId, eventSessionId }
  })()
}

/** A staging whose row is gone, in words: `sessionKept` says whether its session still is. */
export function stagingGoneError(eventSessionId: string, sessionKept: boolean, droppedBecause = 'no page stored for an hour'): Error {
  const session = JSON.stringify(eventSessionId.slice(0, 64))
  return new Error(
    sessionKept
      ? `the viewer list of session ${session} was dropped while it was arriving, as abandoned (${droppedBecause}); it is fetched again at the next pass`
      : `session ${session} left the cache (removed with its connection, or by retention) while its viewer list was arriving; the list is not kept`
  )
}

/** A staging whose row is gone: why, in words. */
function stagingGone(db: Db, list: StagedList): Error {
  const held = statement(db, 'SELECT 1 FROM sessions WHERE connection_id = ? AND event_session_id = ?').get(list.connectionId, list.eventSessionId)
  return stagingGoneError(list.eventSessionId, held !== undefined)
}

/**
 * Writes one page's rows (viewerListRows) into the staged list: one transaction. The rows' id
 * and list slots are filled in here; the arrays are not kept. Breakdown sums are added to `sums`.
 */
export function stagePage(db: Db, list: StagedList, rows: ViewerListRows, at: number, sums?: BreakdownSums): void {
  const listId = list.id
  db.transaction(() => {
    const touched = statement(db, 'UPDATE viewer_lists SET viewer_count = viewer_count + ?, staged_at = ? WHERE id = ? AND staged_at IS NOT NULL').run(
      rows.count,
      at,
      listId
    )
    if (touched.changes === 0) throw stagingGone(db, list)
    // Viewer ids are given here, not by SQLite, so that connection rows can name their viewer
    // without a round trip per row; this transaction holds the write lock, so none can clash.
    const { last } = statement(db, 'SELECT COALESCE(MAX(id), 0) AS last FROM viewers').get() as { last: number }
    // Summed before the slots below turn page indexes into ids.
    if (sums) breakdownOfRows(rows, sums)
    const firstId = last + 1
    const { viewers, connections } = rows
    for (let i = 0; i < viewers.length; i += VIEWER_ROW_WIDTH) {
      viewers[i] = firstId + (viewers[i] as number)
      viewers[i + 1] = listId
    }
    for (let i = 0; i < connections.length; i += CONNECTION_ROW_WIDTH) connections[i] = firstId + (connections[i] as number)
    // Connections reference their viewer's row (foreign key): viewers are written first.
    insertRows(db, 'viewers', VIEWER_COLUMNS, VIEWER_ROW_WIDTH, viewers)
    insertRows(db, 'viewer_connections', CONNECTION_COLUMNS, CONNECTION_ROW_WIDTH, connections)
  })()
}

export interface CommitOptions {
  fetchedAt: number
  pages: number
  dedupe: boolean
  /** The breakdowns summed page by page; dropped (recomputed on request) if dedupe removed rows. */
  sums?: BreakdownSums
}

/**
 * Swaps the staged list in for the one held, in one transaction: whichever list of the session
 * commits last is held. Returns the viewers it holds.
 */
export function commitStagedList(db: Db, list: StagedList, options: CommitOptions): number {
  const listId = list.id
  return db.transaction(() => {
    const staged = statement(db, 'SELECT viewer_count AS count FROM viewer_lists WHERE id = ? AND staged_at IS NOT NULL').get(listId) as { count: number } | undefined
    if (!staged) throw stagingGone(db, list)
    let count = staged.count
    // The last record of a repeated viewer id is the service's latest word.
    const removed = options.dedupe
      ? statement(db, 'DELETE FROM viewers WHERE list_id = ? AND id NOT IN (SELECT MAX(id) FROM viewers WHERE list_id = ? GROUP BY viewer_id)').run(listId, listId).changes
      : 0
    count -= removed
    // Dropping the held list cascades to its viewers, their connections and breakdowns.
    statement(db, 'DELETE FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL').run(list.connectionId, list.eventSessionId)
    statement(db, 'UPDATE viewer_lists SET staged_at = NULL, fetched_at = ?, viewer_count = ?, pages = ? WHERE id = ?').run(options.fetchedAt, count, options.pages, listId)
    if (options.sums && removed === 0) keepBreakdowns(db, listId, options.fetchedAt, options.sums)
    keepListSummary(db, listId)
    return count
  })()
}

/** Drops a staged list and what was staged in it. */
export function abandonStagedList(db: Db, list: StagedList): void {
  statement(db, 'DELETE FROM viewer_lists WHERE id = ? AND staged_at IS NOT NULL').run(list.id)
}

/** Drops staged lists nobody has touched for ABANDONED_AFTER_MS (their process is gone). */
export function dropAbandonedStagings(db: Db, now: number): number {
  return statement(db, 'DELETE FROM viewer_lists WHERE staged_at IS NOT NULL AND staged_at < ?').run(now - ABANDONED_AFTER_MS).changes
}
