// The maintenance window requests. A window added or removed changes the situation (it names the
// windows in force), so every face is pushed the new one, once the window and its audit row have
// committed together.
import type { RequestHandlers } from '../../../shared/contract'
import { nothingApplied } from '../alerts/apply'
import { addMaintenanceWindow, maintenanceWindows, removeMaintenanceWindow } from '../alerts/maintenance-windows'
import type { MaintenanceRecord } from '../store/interface/maintenance'
import type { Store } from '../store/interface/store'
import { auditedUnit } from './audited-unit'
import type { Monitor } from './monitor'

type MaintenanceHandlers = Pick<RequestHandlers, 'listMaintenance' | 'addMaintenance' | 'deleteMaintenance'>

export interface MaintenancePlace {
  store: Store
  monitor: Monitor
  clock: () => number
  /** The windows in force at `now`, as the alerts find them (alerts/maintenance-in-force.ts). */
  windowsInForce(now: number): Promise<Pick<MaintenanceRecord, 'id'>[]>
}

export function maintenanceHandlers({ store, monitor, clock, windowsInForce }: MaintenancePlace): MaintenanceHandlers {
  return {
    listMaintenance: async () => maintenanceWindows(store.read.maintenance, await windowsInForce(clock())),
    addMaintenance: async ({ window, confirmBroad }, context) => {
      const added = await auditedUnit(store, context, (tx) =>
        addMaintenanceWindow(tx.maintenance, window, clock(), { createdBy: context.actor.name, confirmBroad })
      )
      await monitor.publishAlerts(nothingApplied())
      return added
    },
    deleteMaintenance: async ({ id }, context) => {
      const deleted = await auditedUnit(store, context, (tx) => removeMaintenanceWindow(tx.maintenance, id))
      if (deleted) await monitor.publishAlerts(nothingApplied())
      return { deleted }
    }
  }
}
