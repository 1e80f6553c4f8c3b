// A viewer list written page by page and swapped in whole, on PostgreSQL: viewer-staging.ts's
// design (a staged list row, invisible to readers; each page one transaction; the swap one
// transaction) with two changes for several writers on one database (docs/scaling-plan.md,
// section 1, "The viewer writer"):
//
// - Viewers are keyed by (list_id, ordinal), numbered as pages arrive: the page's transaction
//   takes its first ordinal from the list row it touches (which it locks), so no two writers ever
//   draw from one counter, and no id is reserved by a round trip.
// - The swap drops the held list's row only; its viewers stay, unread, until they are purged in
//   batches (viewer-purge.ts), not deleted in one cascading burst inside the swap.
//
// Two swaps of one session are serialised by an advisory lock on the session, so that the last to
// commit is held, as on SQLite (where one writer at a time gets this for free).
import type pg from 'pg'
import type { BreakdownSums } from '../queries/breakdown'
import { breakdownOfRows } from '../breakdown-of-rows'
import { ABANDONED_AFTER_MS, stagingGoneError, type StagedList } from '../viewer-staging'
import type { ViewerListRows } from '../viewer-rows'
import { one, type Sql } from './sql'
import { keepBreakdowns, sumBreakdowns } from './viewer-breakdowns'
import { copyViewerPage, withoutNul } from './viewer-copy'
import { keepListSummary } from './viewer-list-summary'

/** Statements on one client, as the tables take them. */
export const onClient =
  (client: pg.ClientBase): Sql =>
  async (text, values) => {
    const result = await client.query(text, values as unknown[] | undefined)
    return { rows: result.rows, count: result.rowCount ?? 0 }
  }

/** Runs `work` in one transaction on `client`; rolls back and passes the error on when it fails. */
export async function transaction<T>(client: pg.ClientBase, work: (sql: Sql) => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await work(onClient(client))
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}

const FOREIGN_KEY_VIOLATION = '23503'

/**
 * Run first in each transaction that writes a connection's list (begin, page, swap): one that
 * throws rolls it back, and the list fails with its error. Where a server holds connections by
 * lease, its fence check (docs/scaling-plan.md, section 2): a holder that lost its lease writes nothing.
 */
export type WriteGuard = (sql: Sql, connectionId: string) => Promise<void>
const unguarded: WriteGuard = async () => undefined

async function stagingGone(sql: Sql, list: StagedList): Promise<Error> {
  const session = await one(sql, 'SELECT 1 FROM sessions WHERE connection_id = $1 AND event_session_id = $2', [list.connectionId, list.eventSessionId])
  return stagingGoneError(list.eventSessionId, session !== null, 'no page stored for an hour, or another server took its connection over')
}

/** Drops staged lists untouched since `before` (ms), or, with `connectionId`, every staged list of
 *  that connection but those `keep` names. Their viewers are purged later. Answers how many. */
export async function dropStagings(sql: Sql, scope: { before: number } | { connectionId: string; keep: readonly number[] }): Promise<number> {
  const dropped =
    'before' in scope
      ? await sql('DELETE FROM viewer_lists WHERE staged_at IS NOT NULL AND staged_at < $1', [scope.before])
      : await sql('DELETE FROM viewer_lists WHERE staged_at IS NOT NULL AND connection_id = $1 AND id <> ALL($2::bigint[])', [scope.connectionId, scope.keep])
  return dropped.count
}

/** A new staged list for the session, fetched at `fetchedAt`; `now` marks it touched. Stagings
 *  of any session untouched for ABANDONED_AFTER_MS are dropped (their process is gone). */
export async function beginStagedList(
  client: pg.ClientBase,
  connectionId: string,
  eventSessionId: string,
  fetchedAt: number,
  now = Date.now(),
  guard = unguarded
): Promise<StagedList> {
  try {
    return await transaction(client, async (sql) => {
      await guard(sql, connectionId)
      await dropStagings(sql, { before: now - ABANDONED_AFTER_MS })
      const { id } = (await one<{ id: number }>(
        sql,
        `INSERT INTO viewer_lists (connection_id, event_session_id, fetched_at, viewer_count, pages, staged_at)
         VALUES ($1, $2, $3, 0, 0, $4) RETURNING id`,
        [connectionId, eventSessionId, fetchedAt, now]
      ))!
      return { id, connectionId, eventSessionId }
    })
  } catch (error) {
    if ((error as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) throw error
    throw stagingGoneError(eventSessionId, false)
  }
}

/** Writes one page's rows into the staged list, in one transaction; adds their breakdowns to `sums`. */
export async function stagePage(client: pg.ClientBase, list: StagedList, rows: ViewerListRows, at: number, sums?: BreakdownSums, guard = unguarded): Promise<void> {
  await transaction(client, async (sql) => {
    await guard(sql, list.connectionId)
    // Locks the list row until the page commits: its ordinals are this page's alone.
    const touched = await one<{ first: number }>(
      sql,
      `UPDATE viewer_lists SET viewer_count = viewer_count + $1, staged_at = $2
       WHERE id = $3 AND staged_at IS NOT NULL RETURNING viewer_count - $1 AS first`,
      [rows.count, at, list.id]
    )
    if (!touched) throw await stagingGone(sql, list)
    withoutNul(rows)
    if (sums) breakdownOfRows(rows, sums)
    await copyViewerPage(client, list.id, touched.first, rows)
  })
}

export interface CommitOptions {
  fetchedAt: number
  pages: number
  dedupe: boolean
  /** The breakdowns summed page by page; summed again from the rows if dedupe removed some. */
  sums?: BreakdownSums
}

// The last record of a repeated viewer id is the service's latest word; the others go, with their
// network connections. A sort, not a hashed NOT IN: a list of a million does not fit work_mem.
const DEDUPE = `
  WITH repeated AS (
    SELECT ordinal FROM (
      SELECT ordinal, row_number() OVER (PARTITION BY viewer_id ORDER BY ordinal DESC) AS nth FROM viewers WHERE list_id = $1
    ) numbered WHERE nth > 1
  ),
  gone AS (DELETE FROM viewers v USING repeated r WHERE v.list_id = $1 AND v.ordinal = r.ordinal RETURNING v.ordinal),
  links AS (DELETE FROM viewer_connections c USING gone g WHERE c.list_id = $1 AND c.ordinal = g.ordinal)
  SELECT count(*) AS removed FROM gone`

/** Swaps the staged list in for the one held, in one transaction; answers the viewers it holds. */
export async function commitStagedList(client: pg.ClientBase, list: StagedList, options: CommitOptions, guard = unguarded): Promise<number> {
  return transaction(client, async (sql) => {
    await guard(sql, list.connectionId)
    await sql('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [list.connectionId, list.eventSessionId])
    const staged = await one<{ count: number }>(sql, 'SELECT viewer_count AS count FROM viewer_lists WHERE id = $1 AND staged_at IS NOT NULL FOR UPDATE', [list.id])
    if (!staged) throw await stagingGone(sql, list)
    const removed = options.dedupe ? (await one<{ removed: number }>(sql, DEDUPE, [list.id]))!.removed : 0
    const count = staged.count - removed
    // The held list's row goes (its breakdowns with it); its viewers wait for the purge.
    await sql('DELETE FROM viewer_lists WHERE connection_id = $1 AND event_session_id = $2 AND staged_at IS NULL', [list.connectionId, list.eventSessionId])
    await sql('UPDATE viewer_lists SET staged_at = NULL, fetched_at = $2, viewer_count = $3, pages = $4 WHERE id = $1', [list.id, options.fetchedAt, count, options.pages])
    const sums = removed === 0 ? options.sums : await sumBreakdowns(sql, list.id)
    if (sums) await keepBreakdowns(sql, list.id, options.fetchedAt, sums)
    await keepListSummary(sql, list.id)
    return count
  })
}

/** Drops a staged list; what was staged in it is purged later. */
export async function abandonStagedList(client: pg.ClientBase, list: StagedList): Promise<void> {
  await client.query('DELETE FROM viewer_lists WHERE id = $1 AND staged_at IS NOT NULL', [list.id])
}
