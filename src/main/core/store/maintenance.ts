// Named queries over maintenance windows: the only place their SQL lives.
import type { MaintenanceInput } from '../../../shared/maintenance'
import type { Db } from './db'
import { statement } from './statements'

export interface MaintenanceRecord {
  id: number
  name: string
  startsAt: number
  endsAt: number
  repeat: 'none' | 'daily' | 'weekly'
  connectionId: string | null
  connectionName: string | null
  contentId: string | null
  eventSessionId: string | null
  createdBy: string | null
}

export function listMaintenance(db: Db): MaintenanceRecord[] {
  return statement(
    db,
    `SELECT m.id, m.name, m.starts_at AS startsAt, m.ends_at AS endsAt, m.repeat, m.connection_id AS connectionId,
       c.name AS connectionName, m.content_id AS contentId, m.event_session_id AS eventSessionId,
       m.created_by AS createdBy
     FROM maintenance_windows m LEFT JOIN connections c ON c.id = m.connection_id ORDER BY m.starts_at, m.id`
  ).all() as MaintenanceRecord[]
}

export function insertMaintenance(
  db: Db,
  w: Required<Pick<MaintenanceInput, 'name' | 'startsAt' | 'endsAt'>> & MaintenanceInput,
  now: number,
  createdBy: string | null
): number {
  const { lastInsertRowid } = statement(
    db,
    `INSERT INTO maintenance_windows (name, starts_at, ends_at, repeat, connection_id, content_id, event_session_id, created_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(w.name, Date.parse(w.startsAt), Date.parse(w.endsAt), w.repeat ?? 'none', w.connectionId ?? null, w.contentId ?? null, w.eventSessionId ?? null, now, createdBy)
  return Number(lastInsertRowid)
}

export function deleteMaintenance(db: Db, id: number): boolean {
  return statement(db, 'DELETE FROM maintenance_windows WHERE id = ?').run(id).changes > 0
}

/** A cached session's content id, for windows scoped to one. */
export function contentIdOf(db: Db, connectionId: string, eventSessionId: string): string | null {
  const row = statement(db, 'SELECT content_id AS contentId FROM sessions WHERE connection_id = ? AND event_session_id = ?').get(
    connectionId,
    eventSessionId
  ) as { contentId: string | null } | undefined
  return row?.contentId ?? null
}
