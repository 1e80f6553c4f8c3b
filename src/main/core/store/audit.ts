// The audit log: every change made through the app API, with its author. The only place its SQL lives.
import type { AuditEntry } from '../../../shared/team'
import type { Db } from './db'
import { statement } from './statements'

export interface AuditRecord {
  actor: string
  action: string
  subject: string | null
  detail: string | null
}

export function recordAudit(db: Db, entry: AuditRecord, now: number): void {
  statement(db, 'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)').run(
    now,
    entry.actor,
    entry.action,
    entry.subject,
    entry.detail
  )
}

/** Newest first; `before` pages back by id. */
export function listAudit(db: Db, query: { limit?: number | undefined; before?: number | undefined }): AuditEntry[] {
  const rows = statement(
    db,
    'SELECT id, at, actor, action, subject, detail FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?'
  ).all(query.before ?? Number.MAX_SAFE_INTEGER, query.limit ?? 200) as (Omit<AuditEntry, 'at'> & { at: number })[]
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }))
}

/** At most `limit` entries older than `before` go (retention.auditDays, one batch of the hourly
 *  retention job); answers how many went. Index audit_log_by_at. */
export function pruneAudit(db: Db, before: number, limit: number): number {
  return statement(db, 'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? LIMIT ?)').run(before, limit).changes
}
