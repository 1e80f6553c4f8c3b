// Maintenance windows as the CLI and the app manage them: validated input, stored, listed with
// whether each is in force now.
import { MaintenanceInputSchema, type MaintenanceWindow } from '../../../shared/maintenance'
import { parseSettings } from '../connections/errors'
import type { Db } from '../store/db'
import { deleteMaintenance, insertMaintenance, listMaintenance } from '../store/maintenance'
import { inForce } from './maintenance'

export function maintenanceWindows(db: Db, now: number): MaintenanceWindow[] {
  return listMaintenance(db).map((w) => ({
    ...w,
    startsAt: new Date(w.startsAt).toISOString(),
    endsAt: new Date(w.endsAt).toISOString(),
    inForce: inForce(w, now)
  }))
}

/** Adds one; a bad value is a ConnectionError('configuration') naming the field. */
export function addMaintenanceWindow(db: Db, input: unknown, now: number, createdBy: string | null = null): MaintenanceWindow {
  const w = parseSettings(MaintenanceInputSchema, input)
  const id = insertMaintenance(db, w, now, createdBy)
  const added = maintenanceWindows(db, now).find((m) => m.id === id)
  if (!added) throw new Error(`maintenance window ${id} vanished while being written`)
  return added
}

export function removeMaintenanceWindow(db: Db, id: number): boolean {
  return deleteMaintenance(db, id)
}
