// The polling requests: what is polled and how it goes (status, the live board, a session),
// asking for a poll now, pausing, fetching a past range, and the problems polls met.
import type { RequestHandlers } from '../../../shared/contract'
import type { RequestLimiter } from '../api/limiter'
import type { ConnectionService } from '../connections/service'
import type { Store } from '../store/interface/store'
import type { Monitor } from './monitor'
import type { PollerGroup } from './pollers'
import { savedSource } from './saved-sources'

type PollingHandlers = Pick<
  RequestHandlers,
  'getStatus' | 'listLiveSessions' | 'getSession' | 'refreshNow' | 'refreshSession' | 'setPaused' | 'fetchRange' | 'listDiagnostics'
>

export interface PollingPlace {
  store: Store
  pollers: PollerGroup
  monitor: Monitor
  connections: ConnectionService
  /** The one gate every connection's requests pass (a past range fetched for a connection not polled too). */
  limiter: RequestLimiter
}

export function pollingHandlers({ store, pollers, monitor, connections, limiter }: PollingPlace): PollingHandlers {
  return {
    getStatus: () => pollers.status(),
    listLiveSessions: () => monitor.board.current(),
    getSession: ({ connectionId, eventSessionId }) => monitor.board.session(connectionId, eventSessionId),
    refreshNow: async (_args, context) => {
      // Begun here; the connections other servers poll, asked of them first.
      await pollers.refreshNow({ actor: context.actor.name })
      return { startedAt: new Date().toISOString() }
    },
    refreshSession: ({ connectionId, eventSessionId }, context) => pollers.refreshSession(connectionId, eventSessionId, { actor: context.actor.name }),
    setPaused: async ({ paused, connectionId }) => {
      await pollers.setPaused(paused, connectionId)
      return pollers.status()
    },
    fetchRange: async ({ connectionId, from, to }, context) => {
      const source =
        pollers.sources.find((s) => s.target.id === connectionId) ??
        (await savedSource(store, connections, await connections.get(connectionId), limiter))
      return pollers.fetchRange(source, new Date(from), new Date(to), { actor: context.actor.name })
    },
    listDiagnostics: async ({ limit, connectionId }) =>
      (await store.read.runs.diagnostics(limit, connectionId)).map((d) => ({ ...d, at: new Date(d.at).toISOString() }))
  }
}
