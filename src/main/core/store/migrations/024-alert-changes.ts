// Version 24: the alerts' changes as rows (issue 25, plan step 4; scaling-plan.md section 3). One
// row per alert each alerts push announces fired, resolved, changed, removed or repeated, under
// that push's revision and its epoch, written in the unit of work that takes the revision: another
// core on the file, or a server woken by a NOTIFY, reads "what changed since revision N" without
// having been there. Revisions go on across epochs, so the revision orders the rows; the epoch
// says which core's count a row is of (shared/revisions.ts: a new one is taken whole).
// No foreign key to alerts: a removed (discarded) alert's change outlives its row.
import type { Migration } from './types'

export const alertChanges: Migration = {
  version: 24,
  name: 'alert-changes',
  up: (db) => {
    db.exec(`
      CREATE TABLE alert_changes (
        revision INTEGER NOT NULL,
        epoch    TEXT NOT NULL,
        alert_id INTEGER NOT NULL,
        kind     TEXT NOT NULL CHECK (kind IN ('fired', 'resolved', 'changed', 'removed', 'repeated')),
        at       INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX alert_changes_by_revision ON alert_changes (revision, kind, alert_id);
      CREATE INDEX alert_changes_by_time ON alert_changes (at);
    `)
  }
}
