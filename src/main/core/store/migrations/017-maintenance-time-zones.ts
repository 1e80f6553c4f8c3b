// Version 17: maintenance windows keep a named time zone (issue 23). A repeating window repeats at
// the same time of day there, across daylight saving, instead of every fixed 24 or 168 hours.
// Windows made before this had no zone: they get this machine's, which is the zone the CLI read
// their times in and, on a desktop, the one the Settings form used. `phase_ms` (the start's time of
// day, or of the week from Monday 00:00, on the zone's clocks) and the indexes let the core find
// the windows in force without reading them all.
import { repeatPhase } from '../../../../shared/maintenance'
import { systemTimeZone } from '../../../../shared/time-zones'
import type { Migration } from './types'

export const maintenanceTimeZones: Migration = {
  version: 17,
  name: 'maintenance-time-zones',
  up: (db) => {
    db.exec(`
      ALTER TABLE maintenance_windows ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
      -- Repeating windows only: where in its day (daily) or week (weekly) each occurrence starts.
      ALTER TABLE maintenance_windows ADD COLUMN phase_ms INTEGER;
      CREATE INDEX maintenance_once_by_start ON maintenance_windows (repeat, starts_at);
      CREATE INDEX maintenance_repeats_by_phase ON maintenance_windows (repeat, time_zone, phase_ms);
      CREATE INDEX maintenance_by_length ON maintenance_windows (repeat, ends_at - starts_at);
    `)
    const zone = systemTimeZone() ?? 'UTC'
    const rows = db.prepare(`SELECT id, starts_at AS startsAt, repeat FROM maintenance_windows`).all() as {
      id: number
      startsAt: number
      repeat: 'none' | 'daily' | 'weekly'
    }[]
    const update = db.prepare('UPDATE maintenance_windows SET time_zone = ?, phase_ms = ? WHERE id = ?')
    for (const w of rows) update.run(zone, repeatPhase(w.repeat, zone, w.startsAt), w.id)
  }
}
