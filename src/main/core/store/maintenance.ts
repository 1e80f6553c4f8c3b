// Named queries over maintenance windows: the only place their SQL lives. The windows in force are
// found through indexes (one-off ones by start, repeating ones by zone and phase), so a cache of
// ten thousand windows is not read whole for every situation, page or push.
import { repeatPhase, type MAINTENANCE_REPEATS } from '../../../shared/maintenance'
import type { Db } from './db'
import { statement } from './statements'

export type Repeat = (typeof MAINTENANCE_REPEATS)[number]

export interface MaintenanceRecord {
  id: number
  name: string
  startsAt: number
  endsAt: number
  repeat: Repeat
  /** IANA name: repeats keep their time of day on this zone's clocks. */
  timeZone: string
  connectionId: string | null
  connectionName: string | null
  contentId: string | null
  eventSessionId: string | null
  createdBy: string | null
}

/** A window as it is added: the cache gives it its id; the author and connection name come apart. */
export type NewMaintenance = Omit<MaintenanceRecord, 'id' | 'connectionName' | 'createdBy'>

const SELECT = `SELECT m.id, m.name, m.starts_at AS startsAt, m.ends_at AS endsAt, m.repeat, m.time_zone AS timeZone,
       m.connection_id AS connectionId, c.name AS connectionName, m.content_id AS contentId,
       m.event_session_id AS eventSessionId, m.created_by AS createdBy
     FROM maintenance_windows m LEFT JOIN connections c ON c.id = m.connection_id`

export function listMaintenance(db: Db): MaintenanceRecord[] {
  return statement(db, `${SELECT} ORDER BY m.starts_at, m.id`).all() as MaintenanceRecord[]
}

export function getMaintenance(db: Db, id: number): MaintenanceRecord | null {
  return (statement(db, `${SELECT} WHERE m.id = ?`).get(id) as MaintenanceRecord | undefined) ?? null
}

export function insertMaintenance(db: Db, w: NewMaintenance, now: number, createdBy: string | null): number {
  const { lastInsertRowid } = statement(
    db,
    `INSERT INTO maintenance_windows (name, starts_at, ends_at, repeat, time_zone, phase_ms, connection_id, content_id, event_session_id, created_at, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(w.name, w.startsAt, w.endsAt, w.repeat, w.timeZone, repeatPhase(w.repeat, w.timeZone, w.startsAt), w.connectionId, w.contentId, w.eventSessionId, now, createdBy)
  return Number(lastInsertRowid)
}

export function deleteMaintenance(db: Db, id: number): boolean {
  return statement(db, 'DELETE FROM maintenance_windows WHERE id = ?').run(id).changes > 0
}

/** The length of the longest window of this kind, or null when there is none: it bounds the
 *  lookups below (read from the end of an index). */
export function longestMaintenance(db: Db, repeat: Repeat): number | null {
  const row = statement(db, 'SELECT ends_at - starts_at AS length FROM maintenance_windows WHERE repeat = ? ORDER BY ends_at - starts_at DESC LIMIT 1').get(
    repeat
  ) as { length: number } | undefined
  return row?.length ?? null
}

/** One-off windows in force at `now`: started no longer ago than the longest one, not yet ended. */
export function onceInForce(db: Db, now: number, longest: number): MaintenanceRecord[] {
  return statement(db, `${SELECT} WHERE m.repeat = 'none' AND m.starts_at > ? AND m.starts_at <= ? AND m.ends_at > ?`).all(
    now - longest,
    now,
    now
  ) as MaintenanceRecord[]
}

/** The zones that repeating windows of this kind are kept in, each found by one index step. */
export function repeatZones(db: Db, repeat: Repeat): string[] {
  const next = statement(db, 'SELECT time_zone AS zone FROM maintenance_windows WHERE repeat = ? AND time_zone > ? ORDER BY time_zone LIMIT 1')
  const zones: string[] = []
  for (let row = next.get(repeat, '') as { zone: string } | undefined; row; row = next.get(repeat, row.zone) as { zone: string } | undefined) {
    zones.push(row.zone)
  }
  return zones
}

export interface PhaseLookup {
  repeat: Exclude<Repeat, 'none'>
  zone: string
  now: number
  /** `now` on the zone's clocks, as a phase of the period. */
  phaseNow: number
  period: number
  /** How far the zone's clocks moved around now (0: not at all): the margin the lookup allows. */
  slop: number
  /** Phases looked at, inclusive. */
  from: number
  to: number
}

/**
 * Repeating windows of one zone that may be in force: their phase in [from, to], begun, and `now`
 * within their length (plus the slop) after their phase. With no slop this is exact; otherwise the
 * caller decides each one with the zone's real clocks.
 */
export function repeatCandidates(db: Db, q: PhaseLookup): MaintenanceRecord[] {
  // e: how long after its phase `now` falls, shifted by the slop so that it is never negative.
  const e = '((:phaseNow - m.phase_ms + :period + :slop) % :period)'
  return statement(
    db,
    `${SELECT} WHERE m.repeat = :repeat AND m.time_zone = :zone AND m.phase_ms BETWEEN :from AND :to
       AND ${e} < (m.ends_at - m.starts_at) + 3 * :slop AND m.starts_at <= :now - ${e} + 3 * :slop`
  ).all(q) as MaintenanceRecord[]
}

/** A cached session's content id, for windows scoped to one. */
export function contentIdOf(db: Db, connectionId: string, eventSessionId: string): string | null {
  const row = statement(db, 'SELECT content_id AS contentId FROM sessions WHERE connection_id = ? AND event_session_id = ?').get(
    connectionId,
    eventSessionId
  ) as { contentId: string | null } | undefined
  return row?.contentId ?? null
}
