// The connection requests: list, save, switch on or off, remove and test the saved tenants. A
// change restarts polling on the new set (`reconcile`), so every face sees it at once.
import type { RequestHandlers } from '../../../shared/contract'
import { nothingApplied } from '../alerts/apply'
import type { ConnectionService } from '../connections/service'
import { testConnection } from '../connections/test-connection'
import { alertIdsOf } from '../store/alerts'
import type { Db } from '../store/db'
import type { Monitor } from './monitor'

type ConnectionHandlers = Pick<
  RequestHandlers,
  'listConnections' | 'saveConnection' | 'deleteConnection' | 'setConnectionEnabled' | 'testConnection' | 'testConnectionDraft'
>

export interface ConnectionPlace {
  db: Db
  connections: ConnectionService
  monitor: Monitor
  /** Polls what is saved and enabled now (a core without polling does nothing). */
  reconcile(): Promise<void>
}

export function connectionHandlers({ db, connections, monitor, reconcile }: ConnectionPlace): ConnectionHandlers {
  return {
    listConnections: () => connections.list(),
    saveConnection: async ({ id, settings, secret }) => {
      const view = await connections.save(settings, secret, id)
      await reconcile()
      return view
    },
    deleteConnection: async ({ id }) => {
      // Its alerts go with its cached data: every face drops them at once.
      const alertIds = alertIdsOf(db, id)
      // An unknown id deletes nothing: say so, and leave the pollers alone.
      const deleted = await connections.remove(id)
      if (deleted) {
        await reconcile()
        await monitor.publishAlerts({ ...nothingApplied(), removed: alertIds })
      }
      return { deleted }
    },
    setConnectionEnabled: async ({ id, enabled }) => {
      const view = await connections.setEnabled(id, enabled)
      await reconcile()
      return view
    },
    testConnection: ({ id }) => testConnection(connections.target(id), () => connections.credentialsFor(id)),
    testConnectionDraft: ({ id, settings, secret }) => {
      const draft = connections.draft(settings, secret, id)
      return testConnection(draft.target, draft.credentials)
    }
  }
}
