// Saved connections as data sources: the target from SQLite, the secret from the keychain (or
// EVENTWATCH_CLIENT_SECRET for headless use), fetched at each token renewal, never cached here.
import type { ConnectionView } from '../../../shared/connections'
import type { RequestLimiter } from '../api/limiter'
import type { ConnectionService } from '../connections/service'
import type { Store } from '../store/interface/store'
import { createReportingClient } from './client-factory'
import type { DataSource } from './demo-source'

export function savedSource(store: Store, service: ConnectionService, view: ConnectionView, limiter?: RequestLimiter): DataSource {
  const target = service.target(view.id)
  return {
    target,
    client: createReportingClient(store, target, () => service.credentialsFor(view.id), limiter),
    lookbackDays: view.lookbackDays,
    isDemo: false,
    close: async () => undefined
  }
}

/** Every enabled saved connection, ready to poll. */
export async function enabledSavedSources(store: Store, service: ConnectionService, limiter?: RequestLimiter): Promise<DataSource[]> {
  return (await service.list()).filter((v) => v.enabled && !v.isDemo).map((v) => savedSource(store, service, v, limiter))
}
