// The connection requests: list, save, switch on or off, remove and test the saved tenants. A
// change commits with its audit row (one unit), then restarts polling on the new set
// (`reconcile`), so every face sees it at once.
import type { RequestContext, RequestHandlers } from '../../../shared/contract'
import { nothingApplied } from '../alerts/apply'
import type { ConnectionService, UnitRunner } from '../connections/service'
import { testConnection } from '../connections/test-connection'
import { alertIdsOf } from '../store/alerts'
import type { Db } from '../store/db'
import type { Store } from '../store/interface/store'
import { auditedUnit } from './audited-unit'
import type { Monitor } from './monitor'

type ConnectionHandlers = Pick<
  RequestHandlers,
  'listConnections' | 'saveConnection' | 'deleteConnection' | 'setConnectionEnabled' | 'testConnection' | 'testConnectionDraft'
>

export interface ConnectionPlace {
  /** The alerts of a removed connection are read here (the alerts' concern is not in the Store yet). */
  db: Db
  store: Store
  connections: ConnectionService
  monitor: Monitor
  /** Polls what is saved and enabled now (a core without polling does nothing). */
  reconcile(): Promise<void>
}

export function connectionHandlers({ db, store, connections, monitor, reconcile }: ConnectionPlace): ConnectionHandlers {
  /** The change's unit writes its audit row too. */
  const audited =
    (context: RequestContext): UnitRunner =>
    (work) =>
      auditedUnit(store, context, work)
  return {
    listConnections: () => connections.list(),
    saveConnection: async ({ id, settings, secret }, context) => {
      const view = await connections.save(settings, secret, id, audited(context))
      await reconcile()
      return view
    },
    deleteConnection: async ({ id }, context) => {
      // Its alerts go with its cached data: every face drops them at once.
      const alertIds = alertIdsOf(db, id)
      // An unknown id deletes nothing: say so, and leave the pollers alone.
      const deleted = await connections.remove(id, audited(context))
      if (deleted) {
        await reconcile()
        await monitor.publishAlerts({ ...nothingApplied(), removed: alertIds })
      }
      return { deleted }
    },
    setConnectionEnabled: async ({ id, enabled }, context) => {
      const view = await connections.setEnabled(id, enabled, audited(context))
      await reconcile()
      return view
    },
    testConnection: async ({ id }) => testConnection(await connections.target(id), () => connections.credentialsFor(id)),
    testConnectionDraft: async ({ id, settings, secret }) => {
      const draft = await connections.draft(settings, secret, id)
      return testConnection(draft.target, draft.credentials)
    }
  }
}
