// The counts every face weighs the core's pushes by (shared/revisions.ts), as rows: one per name
// ('alerts', 'board'), with the epoch it counts in. Every process on the file bumps the same row,
// so no revision is handed out twice in one epoch, and a restarted core says a new epoch (the
// faces' copies are diffs of the old one's pushes) without counting back from 0.
import type { Revised } from '../../../shared/revisions'
import type { Db } from './db'
import { statement } from './statements'

export type RevisionName = 'alerts' | 'board'

/** Starts a new epoch for `name`; its revision goes on from where it was. */
export function beginEpoch(db: Db, name: RevisionName, epoch: string): Revised {
  return statement(
    db,
    `INSERT INTO revisions (name, epoch, value) VALUES (?, ?, 0)
     ON CONFLICT (name) DO UPDATE SET epoch = excluded.epoch
     RETURNING epoch, value AS revision`
  ).get(name, epoch) as Revised
}

/** The next revision of `name`, in its current epoch (begun by beginEpoch). */
export function nextRevision(db: Db, name: RevisionName): Revised {
  const row = statement(db, 'UPDATE revisions SET value = value + 1 WHERE name = ? RETURNING epoch, value AS revision').get(name) as Revised | undefined
  if (!row) throw new Error(`no epoch was begun for the ${name} revisions`)
  return row
}

/** The revision of `name` now, and its epoch; null before any epoch was begun. */
export function currentRevision(db: Db, name: RevisionName): Revised | null {
  return (statement(db, 'SELECT epoch, value AS revision FROM revisions WHERE name = ?').get(name) as Revised | undefined) ?? null
}
