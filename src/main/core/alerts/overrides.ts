// Per-session alert overrides: mute one session, or give it its own reliability levels. The rules
// (an existing connection, levels that fit together) here; the SQL behind the Store's alerts.
import type { ReliabilityThresholds } from '../../../shared/settings'
import { ConnectionError } from '../connections/errors'
import type { StoredOverride } from '../store/interface/alerts'
import type { Tx } from '../store/interface/store'
import { overrideThrough } from '../store/session-levels'

export type SessionOverride = StoredOverride

export interface OverrideChange {
  connectionId: string
  eventSessionId: string
  /** Left as it was when undefined. */
  muted?: boolean
  /** Left as it was when undefined; null: back to the app's levels. */
  thresholds?: ReliabilityThresholds | null
}

/** Read and written in the unit of work `tx`: a change made meanwhile is not lost. */
export async function setSessionOverride(tx: Tx, change: OverrideChange): Promise<SessionOverride> {
  if (!(await tx.connections.get(change.connectionId))) throw new ConnectionError('not-found', `there is no connection ${change.connectionId}`)
  const current = await overrideThrough(tx, change.connectionId, change.eventSessionId)
  const next: SessionOverride = {
    muted: change.muted ?? current.muted,
    thresholds: change.thresholds === undefined ? current.thresholds : change.thresholds
  }
  if (next.thresholds && !(next.thresholds.critical < next.thresholds.warning)) {
    throw new Error('the critical level must be below the warning level')
  }
  await tx.alerts.setOverride(change.connectionId, change.eventSessionId, next)
  return next
}
