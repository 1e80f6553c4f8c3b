// Maintenance windows as the CLI and the app manage them: validated input, stored with their time
// zone, listed with whether each is in force now. A broad window (every connection, or longer than
// a week) is added only when the caller confirms it. Writes take the unit of work's maintenance
// store (`tx.maintenance`): the caller's unit commits the window with whatever goes with it.
import { broadReasons, broadWhy, MaintenanceInputSchema, type MaintenanceWindow } from '../../../shared/maintenance'
import { canonicalTimeZone, systemTimeZone } from '../../../shared/time-zones'
import { ConnectionError, parseSettings } from '../connections/errors'
import type { MaintenanceReads, MaintenanceRecord, MaintenanceStore } from '../store/interface/maintenance'
import { inForce } from './maintenance'

const view = (w: MaintenanceRecord, inForce: boolean): MaintenanceWindow => ({
  ...w,
  startsAt: new Date(w.startsAt).toISOString(),
  endsAt: new Date(w.endsAt).toISOString(),
  inForce,
  broad: broadReasons(w)
})

/** Every window, each said in force or not as the alerts hold it: `inForceNow` are the windows in
 *  force (maintenance-in-force.ts finds them through indexes; deciding each of 10,000 windows
 *  here would take half a second). */
export async function maintenanceWindows(windows: MaintenanceReads, inForceNow: readonly Pick<MaintenanceRecord, 'id'>[]): Promise<MaintenanceWindow[]> {
  const inForce = new Set(inForceNow.map((w) => w.id))
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
export async function addMaintenanceWindow(windows: MaintenanceStore, input: unknown, now: number, options: AddOptions = {}): Promise<MaintenanceWindow> {
  const w = parseSettings(MaintenanceInputSchema, input)
  const startsAt = Date.parse(w.startsAt)
  const endsAt = Date.parse(w.endsAt)
  const reasons = broadReasons({ startsAt, endsAt, connectionId: w.connectionId })
  if (reasons.length > 0 && !options.confirmBroad) {
    throw new ConnectionError('configuration', `not added without a confirmation (confirmBroad): ${broadWhy(reasons, endsAt - startsAt)}`, 'confirmBroad')
  }
  // Validated by the schema; the machine's own zone when none is given, UTC when it has none.
  const timeZone = (w.timeZone === undefined ? systemTimeZone() : canonicalTimeZone(w.timeZone)) ?? 'UTC'
  const id = await windows.add(
    { name: w.name, startsAt, endsAt, repeat: w.repeat, timeZone, connectionId: w.connectionId ?? null, contentId: w.contentId ?? null, eventSessionId: w.eventSessionId ?? null },
    options.createdBy ?? null,
    now
  )
  const added = await windows.get(id)
  if (!added) throw new Error(`maintenance window ${id} vanished while being written`)
  return view(added, inForce(added, now))
}

export function removeMaintenanceWindow(windows: MaintenanceStore, id: number): Promise<boolean> {
  return windows.remove(id)
}
