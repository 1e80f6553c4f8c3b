// The alerts' changes as rows (alert_changes, migration 024): what each alerts push announced —
// the ids it fired, resolved, changed, removed or repeated — under its revision and epoch,
// written in the unit of work that takes the revision. Another core on the file (or a server
// woken by a NOTIFY, docs/scaling-plan.md section 3) reads what changed since the revision it
// holds, a page at a time, without having been there.
import type { Revised } from '../../../shared/revisions'
import type { Db } from './db'
import { statement } from './statements'

export const ALERT_CHANGE_KINDS = ['fired', 'resolved', 'changed', 'removed', 'repeated'] as const
export type AlertChangeKind = (typeof ALERT_CHANGE_KINDS)[number]

/** The alert ids one push announces, by what happened to them. */
export type AlertChangeIds = Readonly<Record<AlertChangeKind, readonly number[]>>

/** One alert's change, as a push announced it. */
export interface AlertChangeRow {
  /** The count the revision is of: another epoch than the reader's means a restarted core. */
  epoch: string
  revision: number
  alertId: number
  kind: AlertChangeKind
  at: number
}

/** Records what the push stamped `stamp` announces (an alert twice in one kind: once). */
export function recordAlertChanges(db: Db, stamp: Revised, changes: AlertChangeIds, at: number): void {
  const insert = statement(
    db,
    'INSERT OR IGNORE INTO alert_changes (revision, epoch, alert_id, kind, at) VALUES (@revision, @epoch, @alertId, @kind, @at)'
  )
  for (const kind of ALERT_CHANGE_KINDS) for (const alertId of changes[kind]) insert.run({ ...stamp, alertId, kind, at })
}

const SELECT = 'SELECT epoch, revision, alert_id AS alertId, kind, at FROM alert_changes'

/**
 * The changes of the pushes after `revision`, in revision order, in whole revisions: at most
 * `limit` rows, save a single push that announced more (it comes alone and whole, as it was
 * pushed). Revisions go on across epochs, so a later epoch's rows come too, each with its epoch.
 * Read on from the last row's revision; an empty page is the end.
 */
export function alertChangesSince(db: Db, revision: number, limit: number): AlertChangeRow[] {
  const size = changesPageSize(limit)
  const rows = statement(db, `${SELECT} WHERE revision > ? ORDER BY revision, kind, alert_id LIMIT ?`).all(revision, size + 1) as AlertChangeRow[]
  const page = wholePushes(rows, size)
  if (Array.isArray(page)) return page
  return statement(db, `${SELECT} WHERE revision = ? ORDER BY kind, alert_id`).all(page.alone) as AlertChangeRow[]
}

/** The rows a page of `limit` holds: at least one. */
export const changesPageSize = (limit: number): number => Math.max(1, Math.trunc(limit))

/**
 * A page of whole pushes from `rows` (up to `size + 1` rows after a revision, in order): those
 * rows, less the push the page would cut; or, when the first push alone is larger than the page,
 * the revision to read whole instead (`alone`).
 */
export function wholePushes(rows: readonly AlertChangeRow[], size: number): AlertChangeRow[] | { alone: number } {
  if (rows.length <= size) return [...rows]
  // The page ends inside a push: leave that push for the next page.
  const cut = rows[size]!.revision
  const whole = rows.slice(0, size).filter((row) => row.revision !== cut)
  return whole.length > 0 ? whole : { alone: cut }
}

/** Forgets changes recorded before `before`, at most `limit` of them; how many went. */
export function pruneAlertChanges(db: Db, before: number, limit: number): number {
  return statement(db, 'DELETE FROM alert_changes WHERE rowid IN (SELECT rowid FROM alert_changes WHERE at < ? LIMIT ?)').run(before, limit).changes
}
