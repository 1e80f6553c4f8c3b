// Per-session alert overrides: mute one session, or give it its own reliability levels.
import type { ReliabilityThresholds } from '../../../shared/settings'
import { ConnectionError } from '../connections/errors'
import type { Db } from '../store/db'
import { statement } from '../store/statements'
import { NO_OVERRIDE, type SessionOverride } from './engine'

interface OverrideRow {
  event_session_id: string
  muted: number
  warning: number | null
  critical: number | null
}

const toOverride = (r: OverrideRow): SessionOverride => ({
  muted: r.muted === 1,
  thresholds: r.warning === null || r.critical === null ? null : { warning: r.warning, critical: r.critical }
})

/** The connection's overrides by session id. */
export function sessionOverrides(db: Db, connectionId: string): Map<string, SessionOverride> {
  const rows = statement(
    db,
    'SELECT event_session_id, muted, warning, critical FROM alert_overrides WHERE connection_id = ?'
  ).all(connectionId) as OverrideRow[]
  return new Map(rows.map((r) => [r.event_session_id, toOverride(r)]))
}

export function sessionOverride(db: Db, connectionId: string, eventSessionId: string): SessionOverride {
  return sessionOverrides(db, connectionId).get(eventSessionId) ?? NO_OVERRIDE
}

export interface OverrideChange {
  connectionId: string
  eventSessionId: string
  /** Left as it was when undefined. */
  muted?: boolean
  /** Left as it was when undefined; null: back to the app's levels. */
  thresholds?: ReliabilityThresholds | null
}

export function setSessionOverride(db: Db, change: OverrideChange): SessionOverride {
  const known = statement(db, 'SELECT 1 FROM connections WHERE id = ?').get(change.connectionId)
  if (!known) throw new ConnectionError('not-found', `there is no connection ${change.connectionId}`)
  const current = sessionOverride(db, change.connectionId, change.eventSessionId)
  const next: SessionOverride = {
    muted: change.muted ?? current.muted,
    thresholds: change.thresholds === undefined ? current.thresholds : change.thresholds
  }
  if (next.thresholds && !(next.thresholds.critical < next.thresholds.warning)) {
    throw new Error('the critical level must be below the warning level')
  }
  if (!next.muted && next.thresholds === null) {
    statement(db, 'DELETE FROM alert_overrides WHERE connection_id = ? AND event_session_id = ?').run(
      change.connectionId,
      change.eventSessionId
    )
  } else {
    statement(
      db,
      `INSERT INTO alert_overrides (connection_id, event_session_id, muted, warning, critical) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (connection_id, event_session_id) DO UPDATE SET muted = excluded.muted, warning = excluded.warning,
         critical = excluded.critical`
    ).run(change.connectionId, change.eventSessionId, next.muted ? 1 : 0, next.thresholds?.warning ?? null, next.thresholds?.critical ?? null)
  }
  return next
}
