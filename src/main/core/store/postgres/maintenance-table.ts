// The maintenance windows of a Tx on PostgreSQL: store/maintenance.ts's queries in PostgreSQL's
// dialect, through the same indexes (one-off windows by start, repeating ones by zone and phase).
import { repeatPhase } from '../../../../shared/maintenance'
import type { MaintenanceRecord, MaintenanceStore } from '../interface/maintenance'
import { all, one, type Runners } from './sql'

const SELECT = `SELECT m.id, m.name, m.starts_at AS "startsAt", m.ends_at AS "endsAt", m.repeat, m.time_zone AS "timeZone",
       m.connection_id AS "connectionId", c.name AS "connectionName", m.content_id AS "contentId",
       m.event_session_id AS "eventSessionId", m.created_by AS "createdBy"
     FROM maintenance_windows m LEFT JOIN connections c ON c.id = m.connection_id`

export function maintenanceTable({ read, write }: Runners): MaintenanceStore {
  return {
    list: () => all<MaintenanceRecord>(read, `${SELECT} ORDER BY m.starts_at, m.id`),
    get: (id) => one<MaintenanceRecord>(read, `${SELECT} WHERE m.id = $1`, [id]),
    async longest(repeat) {
      const row = await one<{ length: number }>(
        read,
        'SELECT ends_at - starts_at AS length FROM maintenance_windows WHERE repeat = $1 ORDER BY ends_at - starts_at DESC LIMIT 1',
        [repeat]
      )
      return row?.length ?? null
    },
    onceInForce: (now, longest) =>
      all<MaintenanceRecord>(read, `${SELECT} WHERE m.repeat = 'none' AND m.starts_at > $1 AND m.starts_at <= $2 AND m.ends_at > $2`, [
        now - longest,
        now
      ]),
    async zones(repeat) {
      const rows = await all<{ zone: string }>(read, 'SELECT DISTINCT time_zone AS zone FROM maintenance_windows WHERE repeat = $1 ORDER BY time_zone', [repeat])
      return rows.map((r) => r.zone)
    },
    repeatCandidates(q) {
      // e: how long after its phase `now` falls, shifted by the slop so that it is never negative.
      const e = '(($1::bigint - m.phase_ms + $2::bigint + $3::bigint) % $2::bigint)'
      return all<MaintenanceRecord>(
        read,
        `${SELECT} WHERE m.repeat = $4 AND m.time_zone = $5 AND m.phase_ms BETWEEN $6 AND $7
           AND ${e} < (m.ends_at - m.starts_at) + 3 * $3::bigint AND m.starts_at <= $8::bigint - ${e} + 3 * $3::bigint`,
        [q.phaseNow, q.period, q.slop, q.repeat, q.zone, q.from, q.to, q.now]
      )
    },
    async add(w, createdBy, now) {
      const row = await one<{ id: number }>(
        write,
        `INSERT INTO maintenance_windows (name, starts_at, ends_at, repeat, time_zone, phase_ms, connection_id, content_id,
           event_session_id, created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
        [w.name, w.startsAt, w.endsAt, w.repeat, w.timeZone, repeatPhase(w.repeat, w.timeZone, w.startsAt), w.connectionId, w.contentId, w.eventSessionId, now, createdBy]
      )
      return row!.id
    },
    remove: async (id) => (await write('DELETE FROM maintenance_windows WHERE id = $1', [id])).count > 0
  }
}
