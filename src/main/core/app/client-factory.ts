// Every ReportingClient the app makes reports its trouble (skipped records, retries) to the
// diagnostics log of the cache it feeds.
import { ReportingClient } from '../api/client'
import type { ConnectionTarget, Credentials } from '../api/connection'
import type { RequestLimiter } from '../api/limiter'
import type { Store } from '../store/interface/store'

export function createReportingClient(
  store: Store,
  target: ConnectionTarget,
  credentials: () => Promise<Credentials>,
  limiter?: RequestLimiter
): ReportingClient {
  return new ReportingClient(target, credentials, {
    ...(limiter ? { limiter } : {}),
    // A unit of its own, never awaited by the call it reports on (nor failing it).
    onDiagnostic: (d) => {
      const entry = { connectionId: target.id, at: Date.now(), ...d }
      store.withTransaction((tx) => tx.runs.recordDiagnostic(entry)).catch((error: unknown) => {
        console.error(`eventwatch: a diagnostic of ${target.id} (${d.endpoint}) could not be stored`, error)
      })
    }
  })
}
