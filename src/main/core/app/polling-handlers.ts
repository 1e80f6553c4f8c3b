// The polling requests: what is polled and how it goes (status, the live board, a session),
// asking for a poll now, pausing, fetching a past range, and the problems polls met.
import type { RequestHandlers } from '../../../shared/contract'
import type { RequestLimiter } from '../api/limiter'
import type { ConnectionService } from '../connections/service'
import type { Db } from '../store/db'
import { listDiagnostics } from '../store/diagnostics'
import type { Monitor } from './monitor'
import type { PollerGroup } from './pollers'
import { savedSource } from './saved-sources'

type PollingHandlers = Pick<
  RequestHandlers,
  'getStatus' | 'listLiveSessions' | 'getSession' | 'refreshNow' | 'refreshSession' | 'setPaused' | 'fetchRange' | 'listDiagnostics'
>

export interface PollingPlace {
  db: Db
  pollers: PollerGroup
  monitor: Monitor
  connections: ConnectionService
  /** The one gate every connection's requests pass (a past range fetched for a connection not polled too). */
  limiter: RequestLimiter
}

export function pollingHandlers({ db, pollers, monitor, connections, limiter }: PollingPlace): PollingHandlers {
  return {
    getStatus: () => pollers.status(),
    listLiveSessions: () => monitor.board.current(),
    getSession: ({ connectionId, eventSessionId }) => monitor.board.session(connectionId, eventSessionId),
    refreshNow: () => {
      pollers.refreshNow()
      return { startedAt: new Date().toISOString() }
    },
    refreshSession: ({ connectionId, eventSessionId }) => pollers.refreshSession(connectionId, eventSessionId),
    setPaused: async ({ paused, connectionId }) => {
      await pollers.setPaused(paused, connectionId)
      return pollers.status()
    },
    fetchRange: async ({ connectionId, from, to }) => {
      const source =
        pollers.sources.find((s) => s.target.id === connectionId) ??
        (await savedSource(db, connections, await connections.get(connectionId), limiter))
      return pollers.fetchRange(source, new Date(from), new Date(to))
    },
    listDiagnostics: ({ limit, connectionId }) =>
      listDiagnostics(db, limit, connectionId).map((d) => ({ ...d, at: new Date(d.at).toISOString() }))
  }
}
