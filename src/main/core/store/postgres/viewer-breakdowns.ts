// A list's breakdowns on PostgreSQL (queries/breakdown.ts says what they are): kept with the list
// when it is swapped in (summed by the writer page by page, or here in one scan when a repeated
// viewer was dropped), read back from viewer_breakdowns; a list without them is summed in one scan
// per request, as SQLite's read-only reader does.
import { addToBreakdown, BREAKDOWN_DIMENSIONS, breakdownRows, emptyBreakdownSums, type BreakdownDimension, type BreakdownRow, type BreakdownSums, type Combination, type Sums } from '../queries/breakdown'
import { connectionTypeLabel } from '../queries/viewer-sql'
import { all, one, type Sql } from './sql'
import { FIRST_CONNECTION, HELD_LIST } from './viewer-sql'

// Sums per combination of all five keys (a few hundred groups), folded per dimension in JS.
const COMBINATIONS = `
  SELECT vc.site_code AS site, v.device_type AS "deviceType", v.os, v.app, vc.type_json AS "typeJson",
    count(*) AS viewers,
    sum(v.reliability_score) AS "reliabilitySum", count(v.reliability_score) AS "reliabilityCount",
    sum(CASE WHEN v.viewing_time IS NOT NULL THEN v.rebuffering_time END) AS "rebufferingTime",
    sum(v.rebuffering_time + v.viewing_time) AS "watchTime",
    sum(CASE WHEN v.cdn_responses IS NOT NULL THEN v.cdn_errors END) AS "cdnErrors",
    sum(CASE WHEN v.cdn_errors IS NOT NULL THEN v.cdn_responses END) AS "cdnResponses"
  FROM viewers v ${FIRST_CONNECTION}
  WHERE v.list_id = $1
  GROUP BY 1, 2, 3, 4, 5`

/** The sums of a list from its rows, in one scan. */
export async function sumBreakdowns(sql: Sql, listId: number): Promise<BreakdownSums> {
  const out = emptyBreakdownSums()
  for (const row of await all<Combination>(sql, COMBINATIONS, [listId])) {
    addToBreakdown(out, { ...row, connectionType: connectionTypeLabel(row.typeJson) }, row)
  }
  return out
}

/** Keeps `sums` as the breakdowns of the list fetched at `fetchedAt`, in the caller's transaction. */
export async function keepBreakdowns(write: Sql, listId: number, fetchedAt: number, sums: BreakdownSums): Promise<void> {
  const columns: unknown[][] = Array.from({ length: 9 }, () => [])
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    for (const [key, s] of sums[dimension]) {
      const row = [dimension, key, s.viewers, s.reliabilitySum, s.reliabilityCount, s.rebufferingTime, s.watchTime, s.cdnErrors, s.cdnResponses]
      row.forEach((value, i) => columns[i]!.push(value))
    }
  }
  await write('DELETE FROM viewer_breakdowns WHERE list_id = $1', [listId])
  await write(
    `INSERT INTO viewer_breakdowns (list_id, dimension, key, viewers, reliability_sum, reliability_count, rebuffering_time,
       watch_time, cdn_errors, cdn_responses)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::float8[], $6::bigint[], $7::float8[], $8::float8[], $9::float8[], $10::float8[])`,
    [listId, ...columns]
  )
  await write('UPDATE viewer_lists SET breakdowns_of = $2 WHERE id = $1 AND fetched_at = $2', [listId, fetchedAt])
}

async function kept(read: Sql, listId: number, dimension: BreakdownDimension): Promise<Map<string | null, Sums>> {
  const rows = await all<Sums & { key: string | null }>(
    read,
    `SELECT key, viewers, reliability_sum AS "reliabilitySum", reliability_count AS "reliabilityCount",
       rebuffering_time AS "rebufferingTime", watch_time AS "watchTime", cdn_errors AS "cdnErrors", cdn_responses AS "cdnResponses"
     FROM viewer_breakdowns WHERE list_id = $1 AND dimension = $2`,
    [listId, dimension]
  )
  return new Map(rows.map(({ key, ...sums }) => [key, sums]))
}

/** The session's held list broken down by `dimension`, worst first; [] when none is held. */
export async function breakdown(read: Sql, connectionId: string, sessionId: string, dimension: BreakdownDimension): Promise<BreakdownRow[]> {
  const list = await one<{ id: number; fetched_at: number; breakdowns_of: number | null }>(
    read,
    `SELECT id, fetched_at, breakdowns_of ${HELD_LIST}`,
    [connectionId, sessionId]
  )
  if (!list) return []
  const groups = list.breakdowns_of === list.fetched_at ? await kept(read, list.id, dimension) : (await sumBreakdowns(read, list.id))[dimension]
  return breakdownRows(groups)
}
