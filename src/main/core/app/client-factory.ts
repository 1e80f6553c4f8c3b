// Every ReportingClient the app makes reports its trouble (skipped records, retries) to the
// diagnostics log of the cache it feeds.
import { ReportingClient } from '../api/client'
import type { ConnectionTarget, Credentials } from '../api/connection'
import type { RequestLimiter } from '../api/limiter'
import type { Store } from '../store/interface/store'
import { recordDiagnosticAside } from '../sync/pending-diagnostics'

export function createReportingClient(
  store: Store,
  target: ConnectionTarget,
  credentials: () => Promise<Credentials>,
  limiter?: RequestLimiter
): ReportingClient {
  return new ReportingClient(target, credentials, {
    ...(limiter ? { limiter } : {}),
    onDiagnostic: (d) => recordDiagnosticAside(store, { connectionId: target.id, at: Date.now(), ...d })
  })
}
