// The pause flag of polling, as rows: an operator's pause holds across a restart of the core,
// and any core on the file reads it. One row per connection paused alone; EVERY_CONNECTION for
// "pause all" (which covers the connections started later too).
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
