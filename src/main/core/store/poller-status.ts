// Polling as rows: an operator's pause holds across a restart of the core, and any core on the
// file reads it (one row per connection paused alone; EVERY_CONNECTION for "pause all", which
// covers the connections started later too). Each poller's last status is kept beside it, for
// what does not run that poller (another process on the file, later another server).
import type { PollState } from '../../../shared/domain'
import type { Db } from './db'
import { statement } from './statements'

export const EVERY_CONNECTION = '*'

export interface PausedPolling {
  all: boolean
  connections: ReadonlySet<string>
}

export function pausedPolling(db: Db): PausedPolling {
  const rows = statement(db, 'SELECT connection_id AS id FROM poller_status WHERE paused = 1').all() as { id: string }[]
  const ids = new Set(rows.map((r) => r.id))
  const all = ids.delete(EVERY_CONNECTION)
  return { all, connections: ids }
}

/** Whether polling of this connection is paused (alone, or with every connection). */
export const isPollingPaused = (paused: PausedPolling, connectionId: string): boolean => paused.all || paused.connections.has(connectionId)

/**
 * Pauses or resumes one connection, or every one when none is named. Resuming every one resumes
 * those paused alone too, as the pollers do.
 */
export function setPollingPaused(db: Db, paused: boolean, now: number, connectionId: string = EVERY_CONNECTION): void {
  if (!paused && connectionId === EVERY_CONNECTION) {
    statement(db, 'UPDATE poller_status SET paused = 0, updated_at = ? WHERE paused = 1').run(now)
    return
  }
  statement(
    db,
    `INSERT INTO poller_status (connection_id, paused, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (connection_id) DO UPDATE SET paused = excluded.paused, updated_at = excluded.updated_at`
  ).run(connectionId, paused ? 1 : 0, now)
}

/** A poller's status as it last said it. */
export interface StoredPollerStatus {
  state: PollState
  lastUpdateAt: number | null
  lastError: string | null
  offlineSince: number | null
  /** When it said it. */
  updatedAt: number
}

/** Records a poller's status as it changes (its pause flag stays as it is). */
export function savePollerStatus(db: Db, connectionId: string, status: Omit<StoredPollerStatus, 'updatedAt'>, now: number): void {
  statement(
    db,
    `INSERT INTO poller_status (connection_id, state, last_update_at, last_error, offline_since, updated_at)
     VALUES (@connectionId, @state, @lastUpdateAt, @lastError, @offlineSince, @now)
     ON CONFLICT (connection_id) DO UPDATE SET state = excluded.state, last_update_at = excluded.last_update_at,
       last_error = excluded.last_error, offline_since = excluded.offline_since, updated_at = excluded.updated_at`
  ).run({ connectionId, state: status.state, lastUpdateAt: status.lastUpdateAt, lastError: status.lastError, offlineSince: status.offlineSince, now })
}

/** Each connection's poller status as last recorded, by connection id. */
export function pollerStatuses(db: Db): Map<string, StoredPollerStatus> {
  const rows = statement(
    db,
    `SELECT connection_id AS id, state, last_update_at AS lastUpdateAt, last_error AS lastError, offline_since AS offlineSince,
       updated_at AS updatedAt FROM poller_status WHERE state IS NOT NULL`
  ).all() as ({ id: string } & StoredPollerStatus)[]
  return new Map(rows.map(({ id, ...status }) => [id, status]))
}
