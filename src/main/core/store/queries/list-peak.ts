// The most viewers of one list watching at once, from their start and end times (issues 14, 24),
// and how many viewers have no usable times: no start, or an end before their start. Those are
// not counted (a reversed interval is no time watched), and the figure says how many were left out.
//
// Streamed, so a list of millions costs bounded memory: SQLite orders every usable start (+1)
// and end (−1) by time, a leave before a join at the same instant (the two never watched
// together), and hands them over one row at a time; its sorter spills to a temporary file past
// its cache. A viewer without an end was still watching when the list was fetched: never leaves.
import type { Db } from '../db'
import { statement } from '../statements'
import { LIST_ROWS, listRange } from './viewer-story'

/** A viewer whose times can be counted: a start, and no end before it. */
export const USABLE_TIMES = 'started_at IS NOT NULL AND (ended_at IS NULL OR ended_at >= started_at)'

export interface ListPeak {
  /** The most watching at once, and the first instant (ms) it was reached; null without a usable viewer. */
  peak: { viewers: number; at: number } | null
  /** Viewers of the list without usable times, left out of the peak. */
  untimed: number
}

export function listPeak(db: Db, listId: number): ListPeak {
  const range = listRange(db, listId)
  const { viewers, usable } = statement(db, `SELECT COUNT(*) AS viewers, TOTAL(${USABLE_TIMES}) AS usable FROM ${LIST_ROWS}`).get(range) as {
    viewers: number
    usable: number
  }
  const events = statement(
    db,
    `SELECT started_at AS t, 1 AS step FROM ${LIST_ROWS} AND ${USABLE_TIMES}
     UNION ALL
     SELECT ended_at AS t, -1 AS step FROM ${LIST_ROWS} AND ${USABLE_TIMES} AND ended_at IS NOT NULL
     ORDER BY t, step`
  ).raw(true)
  let watching = 0
  let peak: ListPeak['peak'] = null
  for (const [t, step] of events.iterate(range) as IterableIterator<[number, number]>) {
    watching += step
    if (step > 0 && (peak === null || watching > peak.viewers)) peak = { viewers: watching, at: t }
  }
  return { peak, untimed: viewers - usable }
}
