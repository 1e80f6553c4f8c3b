// Per-session alert overrides: mute one session, or give it its own reliability levels. The rules
// (an existing connection, levels that fit together) here; the SQL in store/alert-overrides.ts.
import type { ReliabilityThresholds } from '../../../shared/settings'
import { ConnectionError } from '../connections/errors'
import { writeOverride, type StoredOverride } from '../store/alert-overrides'
import { connectionPresence } from '../store/connections'
import type { Db } from '../store/db'
import { LevelBook } from '../store/session-levels'

export type SessionOverride = StoredOverride

export function sessionOverride(db: Db, connectionId: string, eventSessionId: string): SessionOverride {
  return new LevelBook(db).override(connectionId, eventSessionId)
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
  if (!connectionPresence(db, change.connectionId)) throw new ConnectionError('not-found', `there is no connection ${change.connectionId}`)
  const current = sessionOverride(db, change.connectionId, change.eventSessionId)
  const next: SessionOverride = {
    muted: change.muted ?? current.muted,
    thresholds: change.thresholds === undefined ? current.thresholds : change.thresholds
  }
  if (next.thresholds && !(next.thresholds.critical < next.thresholds.warning)) {
    throw new Error('the critical level must be below the warning level')
  }
  writeOverride(db, change.connectionId, change.eventSessionId, next)
  return next
}
