// Per-session alert overrides in SQLite (table alert_overrides): a session muted, or given its
// own reliability levels. The only place their SQL lives; the rules are in core/alerts/overrides.ts.
import type { ReliabilityThresholds } from '../../../shared/settings'
import type { Db } from './db'
import { statement } from './statements'

export interface StoredOverride {
  muted: boolean
  thresholds: ReliabilityThresholds | null
}

interface OverrideRow {
  event_session_id: string
  muted: number
  warning: number | null
  critical: number | null
}

const toOverride = (r: OverrideRow): StoredOverride => ({
  muted: r.muted === 1,
  thresholds: r.warning === null || r.critical === null ? null : { warning: r.warning, critical: r.critical }
})

/** The connection's overrides by session id. */
export function storedOverrides(db: Db, connectionId: string): Map<string, StoredOverride> {
  const rows = statement(
    db,
    'SELECT event_session_id, muted, warning, critical FROM alert_overrides WHERE connection_id = ?'
  ).all(connectionId) as OverrideRow[]
  return new Map(rows.map((r) => [r.event_session_id, toOverride(r)]))
}

/** Writes a session's override; one that changes nothing (not muted, no levels) is deleted. */
export function writeOverride(db: Db, connectionId: string, eventSessionId: string, next: StoredOverride): void {
  if (!next.muted && next.thresholds === null) {
    statement(db, 'DELETE FROM alert_overrides WHERE connection_id = ? AND event_session_id = ?').run(connectionId, eventSessionId)
    return
  }
  statement(
    db,
    `INSERT INTO alert_overrides (connection_id, event_session_id, muted, warning, critical) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (connection_id, event_session_id) DO UPDATE SET muted = excluded.muted, warning = excluded.warning,
       critical = excluded.critical`
  ).run(connectionId, eventSessionId, next.muted ? 1 : 0, next.thresholds?.warning ?? null, next.thresholds?.critical ?? null)
}
