// The maintenance window requests. A window added or removed changes the situation (it names the
// windows in force), so every face is pushed the new one.
import type { RequestHandlers } from '../../../shared/contract'
import { nothingApplied } from '../alerts/apply'
import { addMaintenanceWindow, maintenanceWindows, removeMaintenanceWindow } from '../alerts/maintenance-windows'
import type { Db } from '../store/db'
import type { Store } from '../store/interface/store'
import type { Monitor } from './monitor'

type MaintenanceHandlers = Pick<RequestHandlers, 'listMaintenance' | 'addMaintenance' | 'deleteMaintenance'>

export function maintenanceHandlers(db: Db, store: Store, monitor: Monitor, clock: () => number): MaintenanceHandlers {
  return {
    listMaintenance: () => maintenanceWindows(store.read.maintenance, clock()),
    addMaintenance: async ({ window, confirmBroad }, { actor }) => {
      const added = addMaintenanceWindow(db, window, clock(), { createdBy: actor.name, confirmBroad })
      await monitor.publishAlerts(nothingApplied())
      return added
    },
    deleteMaintenance: async ({ id }) => {
      const deleted = removeMaintenanceWindow(db, id)
      if (deleted) await monitor.publishAlerts(nothingApplied())
      return { deleted }
    }
  }
}
