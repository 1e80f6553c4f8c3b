// Saved connections as data sources: the target from SQLite, the secret from the keychain (or
// EVENTWATCH_CLIENT_SECRET for headless use), fetched at each token renewal, never cached here.
import type { ConnectionView } from '../../../shared/connections'
import type { RequestLimiter } from '../api/limiter'
import type { ConnectionService } from '../connections/service'
import type { Store } from '../store/interface/store'
import { createReportingClient } from './client-factory'
import type { DataSource } from './demo-source'

/** `store`: the diagnostics log its client reports to (client-factory.ts); `diagnostics`, where
 *  its connection's writes are fenced with its lease (servers sharing connections), that instead. */
export async function savedSource(
  store: Store,
  service: ConnectionService,
  view: ConnectionView,
  limiter?: RequestLimiter,
  diagnostics: Store = store
): Promise<DataSource> {
  const target = await service.target(view.id)
  return {
    target,
    client: createReportingClient(diagnostics, target, () => service.credentialsFor(view.id), limiter),
    lookbackDays: view.lookbackDays,
    isDemo: false,
    close: async () => undefined
  }
}

/** Every enabled saved connection, ready to poll; `writesOf`: the Store each one's client records
 *  its diagnostics through (fenced with its lease, where servers share the connections). */
export async function enabledSavedSources(
  store: Store,
  service: ConnectionService,
  limiter?: RequestLimiter,
  writesOf: (connectionId: string) => Store = () => store
): Promise<DataSource[]> {
  const enabled = (await service.list()).filter((v) => v.enabled && !v.isDemo)
  return Promise.all(enabled.map((v) => savedSource(store, service, v, limiter, writesOf(v.id))))
}
