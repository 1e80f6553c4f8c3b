// Maintenance windows as the CLI and the app manage them: validated input, stored with their time
// zone, listed with whether each is in force now. A broad window (every connection, or longer than
// a week) is added only when the caller confirms it.
import { broadReasons, broadWhy, MaintenanceInputSchema, type MaintenanceWindow } from '../../../shared/maintenance'
import { canonicalTimeZone, systemTimeZone } from '../../../shared/time-zones'
import { ConnectionError, parseSettings } from '../connections/errors'
import type { Db } from '../store/db'
import type { MaintenanceReads } from '../store/interface/maintenance'
import { deleteMaintenance, getMaintenance, insertMaintenance, type MaintenanceRecord } from '../store/maintenance'
import { inForce } from './maintenance'
import { windowsInForce } from './maintenance-in-force'

const view = (w: MaintenanceRecord, inForce: boolean): MaintenanceWindow => ({
  ...w,
  startsAt: new Date(w.startsAt).toISOString(),
  endsAt: new Date(w.endsAt).toISOString(),
  inForce,
  broad: broadReasons(w)
})

export async function maintenanceWindows(windows: MaintenanceReads, now: number): Promise<MaintenanceWindow[]> {
  const inForce = new Set((await windowsInForce(windows, now)).map((w) => w.id))
  return (await windows.list()).map((w) => view(w, inForce.has(w.id)))
}

export interface AddOptions {
  /** Who adds it: a team server's user, or null. */
  createdBy?: string | null
  /** The caller confirmed a broad window (every connection, or longer than a week). */
  confirmBroad?: boolean
}

/** Adds one; a bad value, or a broad window not confirmed, is a ConnectionError('configuration')
 *  naming the field. */
export function addMaintenanceWindow(db: Db, input: unknown, now: number, options: AddOptions = {}): MaintenanceWindow {
  const w = parseSettings(MaintenanceInputSchema, input)
  const startsAt = Date.parse(w.startsAt)
  const endsAt = Date.parse(w.endsAt)
  const reasons = broadReasons({ startsAt, endsAt, connectionId: w.connectionId })
  if (reasons.length > 0 && !options.confirmBroad) {
    throw new ConnectionError('configuration', `not added without a confirmation (confirmBroad): ${broadWhy(reasons, endsAt - startsAt)}`, 'confirmBroad')
  }
  // Validated by the schema; the machine's own zone when none is given, UTC when it has none.
  const timeZone = (w.timeZone === undefined ? systemTimeZone() : canonicalTimeZone(w.timeZone)) ?? 'UTC'
  const id = insertMaintenance(
    db,
    { name: w.name, startsAt, endsAt, repeat: w.repeat, timeZone, connectionId: w.connectionId ?? null, contentId: w.contentId ?? null, eventSessionId: w.eventSessionId ?? null },
    now,
    options.createdBy ?? null
  )
  const added = getMaintenance(db, id)
  if (!added) throw new Error(`maintenance window ${id} vanished while being written`)
  return view(added, inForce(added, now))
}

export function removeMaintenanceWindow(db: Db, id: number): boolean {
  return deleteMaintenance(db, id)
}
