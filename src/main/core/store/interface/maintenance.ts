// The maintenance concern of the Store: windows during which alerts stay quiet.
import type { MaintenanceRecord, NewMaintenance, PhaseLookup, Repeat } from '../maintenance'

export type { MaintenanceRecord, NewMaintenance, PhaseLookup }

export interface MaintenanceReads {
  /** Every window, by start. */
  list(): Promise<MaintenanceRecord[]>
  get(id: number): Promise<MaintenanceRecord | null>
  // The indexed lookups that find the windows in force (alerts/maintenance-in-force.ts decides).
  /** The length of the longest window of this kind, or null when there is none. */
  longest(repeat: Repeat): Promise<number | null>
  /** One-off windows in force at `now`: started no longer ago than `longest`, not yet ended. */
  onceInForce(now: number, longest: number): Promise<MaintenanceRecord[]>
  /** The zones repeating windows of this kind are kept in. */
  zones(repeat: Repeat): Promise<string[]>
  /** Repeating windows of one zone that may be in force (store/maintenance.ts says how). */
  repeatCandidates(lookup: PhaseLookup): Promise<MaintenanceRecord[]>
}

export interface MaintenanceStore extends MaintenanceReads {
  /** The new window's id; `createdBy` is the author the audit names. */
  add(window: NewMaintenance, createdBy: string | null, now: number): Promise<number>
  remove(id: number): Promise<boolean>
}
