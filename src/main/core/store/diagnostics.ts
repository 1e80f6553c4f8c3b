// A log of what went wrong talking to the service: skipped records, failed requests, retries.
// Shown in the diagnostics view; never holds a secret (messages come from ApiError, which
// names endpoints and reasons only).
import { redact } from '../net/redact'
import type { ErrorKind } from '../../../shared/error-kinds'
import type { Db } from './db'
import { statement } from './statements'

export interface DiagnosticEntry {
  id: number
  connectionId: string | null
  at: number
  kind: ErrorKind
  endpoint: string
  message: string
}

export const DIAGNOSTICS_KEPT = 5000
export const DIAGNOSTIC_MESSAGE_MAX = 500

export function recordDiagnostic(db: Db, entry: Omit<DiagnosticEntry, 'id'>): void {
  statement(db, 'INSERT INTO diagnostics (connection_id, at, kind, endpoint, message) VALUES (?, ?, ?, ?, ?)').run(
    entry.connectionId,
    entry.at,
    entry.kind,
    entry.endpoint,
    redact(entry.message).slice(0, DIAGNOSTIC_MESSAGE_MAX)
  )
  // Bounded: a service that misbehaves all night must not fill the disk.
  statement(db, 'DELETE FROM diagnostics WHERE id <= (SELECT MAX(id) FROM diagnostics) - ?').run(DIAGNOSTICS_KEPT)
}

/** An entry as listed: with the name of its connection (null for the app's own). */
export type ListedDiagnostic = DiagnosticEntry & { connectionName: string | null }

/** Newest first; only `connectionId`'s rows when given, only the app-wide ones (of no connection) for null. */
export function listDiagnostics(db: Db, limit = 200, connectionId?: string | null): ListedDiagnostic[] {
  const columns = `SELECT d.id, d.connection_id AS connectionId, c.name AS connectionName, d.at, d.kind, d.endpoint, d.message
    FROM diagnostics d LEFT JOIN connections c ON c.id = d.connection_id`
  if (connectionId === undefined) return statement(db, `${columns} ORDER BY d.id DESC LIMIT ?`).all(limit) as ListedDiagnostic[]
  if (connectionId === null) return statement(db, `${columns} WHERE d.connection_id IS NULL ORDER BY d.id DESC LIMIT ?`).all(limit) as ListedDiagnostic[]
  return statement(db, `${columns} WHERE d.connection_id = ? ORDER BY d.id DESC LIMIT ?`).all(connectionId, limit) as ListedDiagnostic[]
}
