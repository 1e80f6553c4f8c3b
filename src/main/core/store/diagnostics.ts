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

const KEEP = 5000

export function recordDiagnostic(db: Db, entry: Omit<DiagnosticEntry, 'id'>): void {
  statement(db, 'INSERT INTO diagnostics (connection_id, at, kind, endpoint, message) VALUES (?, ?, ?, ?, ?)').run(
    entry.connectionId,
    entry.at,
    entry.kind,
    entry.endpoint,
    redact(entry.message).slice(0, 500)
  )
  // Bounded: a service that misbehaves all night must not fill the disk.
  statement(db, 'DELETE FROM diagnostics WHERE id <= (SELECT MAX(id) FROM diagnostics) - ?').run(KEEP)
}

/** Newest first; only `connectionId`'s rows when given (rows of no connection are app-wide). */
export function listDiagnostics(db: Db, limit = 200, connectionId?: string): DiagnosticEntry[] {
  const columns = 'SELECT id, connection_id AS connectionId, at, kind, endpoint, message FROM diagnostics'
  if (connectionId === undefined) return statement(db, `${columns} ORDER BY id DESC LIMIT ?`).all(limit) as DiagnosticEntry[]
  return statement(db, `${columns} WHERE connection_id = ? ORDER BY id DESC LIMIT ?`).all(connectionId, limit) as DiagnosticEntry[]
}
