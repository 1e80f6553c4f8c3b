// Where the trouble is: a session's viewers grouped by site, device type, OS, app or connection
// type, worst average reliability first.
//
// A breakdown needs every viewer of the session (tens of thousands), too slow to redo on each
// screen refresh. So the sums of all five dimensions are kept in viewer_breakdowns, stamped with
// the list's fetched_at: written with the list itself (breakdown-of-rows.ts), or, for a list
// stored before that, computed by the first request in one scan. Storing a new list drops them
// (FK cascade).
//
// The math, over the viewers for which the service gave the needed fields:
//   avgReliability   = mean reliabilityScore
//   rebufferingRatio = Σ rebufferingTime / Σ (rebufferingTime + viewingTime)
//   cdnErrorRate     = Σ cdnErrors / Σ cdnResponses
// each null when nothing is known or the divisor is 0.
import type { Db } from '../db'
import { statement } from '../statements'
import { connectionTypeLabel, FIRST_CONNECTION } from './viewer-sql'

export const BREAKDOWN_DIMENSIONS = ['site', 'deviceType', 'os', 'app', 'connectionType'] as const
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number]

export interface BreakdownRow {
  /** The site code (as text), device type, …; null for viewers the service said nothing about. */
  key: string | null
  viewers: number
  avgReliability: number | null
  rebufferingRatio: number | null
  cdnErrorRate: number | null
}

/** Sums that add up across groups (a mean or a ratio does not). */
export interface Sums {
  viewers: number
  reliabilitySum: number
  reliabilityCount: number
  rebufferingTime: number
  watchTime: number
  cdnErrors: number
  cdnResponses: number
}

export type Combination = Record<Exclude<BreakdownDimension, 'connectionType'>, string | number | null> & {
  typeJson: string | null
} & { [K in keyof Sums]: number | null }

// One scan: sums per combination of all five keys (a few hundred groups), folded per dimension in
// JS. The connection type is grouped by its raw JSON and labelled once per group, not per viewer.
const COMBINATIONS = `
  SELECT vc.site_code AS site, v.device_type AS deviceType, v.os AS os, v.app AS app, vc.type_json AS typeJson,
    COUNT(*) AS viewers,
    SUM(v.reliability_score) AS reliabilitySum, COUNT(v.reliability_score) AS reliabilityCount,
    SUM(CASE WHEN v.viewing_time IS NOT NULL THEN v.rebuffering_time END) AS rebufferingTime,
    SUM(v.rebuffering_time + v.viewing_time) AS watchTime,
    SUM(CASE WHEN v.cdn_responses IS NOT NULL THEN v.cdn_errors END) AS cdnErrors,
    SUM(CASE WHEN v.cdn_errors IS NOT NULL THEN v.cdn_responses END) AS cdnResponses
  FROM viewers v ${FIRST_CONNECTION}
  WHERE v.list_id = ?
  GROUP BY 1, 2, 3, 4, 5`

const emptySums = (): Sums => ({
  viewers: 0,
  reliabilitySum: 0,
  reliabilityCount: 0,
  rebufferingTime: 0,
  watchTime: 0,
  cdnErrors: 0,
  cdnResponses: 0
})

/** Per dimension, the sums of each group. */
export type BreakdownSums = Record<BreakdownDimension, Map<string | null, Sums>>

export const emptyBreakdownSums = (): BreakdownSums =>
  Object.fromEntries(BREAKDOWN_DIMENSIONS.map((d) => [d, new Map<string | null, Sums>()])) as BreakdownSums

/** Adds one combination of keys (a viewer, or a group of them) to every dimension's group. */
export function addToBreakdown(
  out: BreakdownSums,
  keys: Record<BreakdownDimension, string | number | null>,
  add: { [K in keyof Sums]: number | null }
): void {
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    const raw = keys[dimension]
    const key = raw === null ? null : String(raw)
    const groups = out[dimension]
    let sums = groups.get(key)
    if (!sums) groups.set(key, (sums = emptySums()))
    sums.viewers += add.viewers ?? 0
    sums.reliabilitySum += add.reliabilitySum ?? 0
    sums.reliabilityCount += add.reliabilityCount ?? 0
    sums.rebufferingTime += add.rebufferingTime ?? 0
    sums.watchTime += add.watchTime ?? 0
    sums.cdnErrors += add.cdnErrors ?? 0
    sums.cdnResponses += add.cdnResponses ?? 0
  }
}

/** The sums from the stored rows: for lists stored before the writer kept them (viewers.ts does). */
function compute(db: Db, listId: number): BreakdownSums {
  const out = emptyBreakdownSums()
  for (const row of statement(db, COMBINATIONS).iterate(listId) as IterableIterator<Combination>) {
    addToBreakdown(out, { ...row, connectionType: connectionTypeLabel(row.typeJson) }, row)
  }
  return out
}

/** Keeps `sums` as the breakdowns of the list fetched at `fetchedAt`, inside the caller's transaction. */
export function keepBreakdowns(db: Db, listId: number, fetchedAt: number, sums: BreakdownSums): void {
  const insert = statement(
    db,
    `INSERT INTO viewer_breakdowns (list_id, dimension, key, viewers, reliability_sum,
       reliability_count, rebuffering_time, watch_time, cdn_errors, cdn_responses)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  statement(db, 'DELETE FROM viewer_breakdowns WHERE list_id = ?').run(listId)
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    for (const [key, s] of sums[dimension]) {
      insert.run(listId, dimension, key, s.viewers, s.reliabilitySum, s.reliabilityCount,
        s.rebufferingTime, s.watchTime, s.cdnErrors, s.cdnResponses)
    }
  }
  statement(db, 'UPDATE viewer_lists SET breakdowns_of = ? WHERE id = ? AND fetched_at = ?').run(fetchedAt, listId, fetchedAt)
}

/** Keeps the sums for the list fetched at `fetchedAt`; skipped (not an error) if the file is busy or read-only. */
function remember(db: Db, listId: number, fetchedAt: number, sums: BreakdownSums): void {
  if (db.readonly) return
  // A cache must never make the UI wait on another process's write lock.
  const timeout = db.pragma('busy_timeout', { simple: true }) as number
  db.pragma('busy_timeout = 0')
  try {
    db.transaction(() => keepBreakdowns(db, listId, fetchedAt, sums))()
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error
  } finally {
    db.pragma(`busy_timeout = ${timeout}`)
  }
}

function remembered(db: Db, listId: number, dimension: BreakdownDimension): Map<string | null, Sums> {
  const rows = statement(
    db,
    `SELECT key, viewers, reliability_sum AS reliabilitySum, reliability_count AS reliabilityCount,
       rebuffering_time AS rebufferingTime, watch_time AS watchTime, cdn_errors AS cdnErrors, cdn_responses AS cdnResponses
     FROM viewer_breakdowns WHERE list_id = ? AND dimension = ?`
  ).all(listId, dimension) as (Sums & { key: string | null })[]
  return new Map(rows.map(({ key, ...sums }) => [key, sums]))
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null)

function toRow(key: string | null, s: Sums): BreakdownRow {
  return {
    key,
    viewers: s.viewers,
    avgReliability: ratio(s.reliabilitySum, s.reliabilityCount),
    rebufferingRatio: ratio(s.rebufferingTime, s.watchTime),
    cdnErrorRate: ratio(s.cdnErrors, s.cdnResponses)
  }
}

/** Worst first: lowest average reliability, unknown reliability last; then bigger groups, then key. */
function worstFirst(a: BreakdownRow, b: BreakdownRow): number {
  if (a.avgReliability !== b.avgReliability) {
    if (a.avgReliability === null) return 1
    if (b.avgReliability === null) return -1
    return a.avgReliability - b.avgReliability
  }
  if (a.viewers !== b.viewers) return b.viewers - a.viewers
  if (a.key === b.key) return 0
  if (a.key === null) return 1
  if (b.key === null) return -1
  return a.key < b.key ? -1 : 1
}

/** The session's cached viewer list broken down by `dimension`; [] when no list is cached. */
export function breakdown(db: Db, connectionId: string, sessionId: string, dimension: BreakdownDimension): BreakdownRow[] {
  const list = statement(
    db,
    'SELECT id, fetched_at, breakdowns_of FROM viewer_lists WHERE connection_id = ? AND event_session_id = ? AND staged_at IS NULL'
  ).get(connectionId, sessionId) as { id: number; fetched_at: number; breakdowns_of: number | null } | undefined
  if (!list) return []
  let groups: Map<string | null, Sums>
  if (list.breakdowns_of === list.fetched_at) {
    groups = remembered(db, list.id, dimension)
  } else {
    const computed = compute(db, list.id)
    remember(db, list.id, list.fetched_at, computed)
    groups = computed[dimension]
  }
  return breakdownRows(groups)
}

/** A dimension's groups as the drill-down shows them, worst first. */
export function breakdownRows(groups: Map<string | null, Sums>): BreakdownRow[] {
  return [...groups].map(([key, sums]) => toRow(key, sums)).sort(worstFirst)
}
