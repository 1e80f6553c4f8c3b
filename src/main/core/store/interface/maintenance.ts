// The maintenance concern of the Store: windows during which alerts stay quiet.
import type { MaintenanceRecord, NewMaintenance } from '../maintenance'

export type { MaintenanceRecord, NewMaintenance }

export interface MaintenanceReads {
  /** Every window, by start. */
  list(): Promise<MaintenanceRecord[]>
  get(id: number): Promise<MaintenanceRecord | null>
}

export interface MaintenanceStore extends MaintenanceReads {
  /** The new window's id; `createdBy` is the author the audit names. */
  add(window: NewMaintenance, createdBy: string | null, now: number): Promise<number>
  remove(id: number): Promise<boolean>
}
