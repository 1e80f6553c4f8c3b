// Composition of the core: cache, data source (the demo simulator until a connection is
// configured), poller, event hub and request handlers. Every face starts the core through here.
import type { Status } from '../../../shared/domain'
import { openDatabase } from '../store/db'
import { countSessions, getSession, listLiveSessions } from '../store/sessions'
import { Poller, type PollerStatus } from '../sync/poller'
import { DEMO_CONNECTION_ID, DEMO_CONNECTION_NAME, startDemoSource, type DataSource } from './demo-source'
import { createDispatch } from './dispatch'
import { EventHub } from './event-hub'
import type { AppCore, AppCoreOptions } from './types'

const DEFAULT_POLL_INTERVAL_MS = 15_000

export async function startAppCore(options: AppCoreOptions): Promise<AppCore> {
  const db = openDatabase(options.dbFile, { nativeBinding: options.nativeBinding })
  let source: DataSource
  try {
    source = await startDemoSource(db, { seed: options.demoSeed ?? 42 })
  } catch (error) {
    db.close()
    throw error
  }
  const hub = new EventHub()
  const intervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS

  const status = (s: PollerStatus): Status => ({
    mode: 'demo',
    connectionName: DEMO_CONNECTION_NAME,
    pollState: s.state,
    lastUpdateAt: s.lastUpdateAt === null ? null : new Date(s.lastUpdateAt).toISOString(),
    lastError: s.lastError,
    pollIntervalSeconds: intervalMs / 1000
  })

  const poller = new Poller(db, source.client, {
    connectionId: DEMO_CONNECTION_ID,
    intervalMs,
    onStatus: (s) => hub.emit('statusChanged', status(s)),
    onPolled: (outcome) => {
      const counts = countSessions(db)
      hub.emit('sessionsChanged', {
        at: new Date(outcome.at).toISOString(),
        liveCount: counts.live,
        storedCount: counts.stored
      })
    }
  })

  const dispatch = createDispatch({
    getStatus: () => status(poller.currentStatus),
    listLiveSessions: () => listLiveSessions(db),
    getSession: ({ connectionId, eventSessionId }) => getSession(db, connectionId, eventSessionId),
    refreshNow: () => {
      const startedAt = new Date().toISOString()
      void poller.pollOnce().catch(() => undefined) // the status event reports the outcome
      return { startedAt }
    }
  })

  poller.start()
  let closed = false
  return {
    dispatch,
    onEvent: (listener) => hub.subscribe(listener),
    close: async () => {
      if (closed) return
      closed = true
      await poller.stop()
      await source.close()
      db.close()
    }
  }
}
