// Saved connections as data sources: the target from SQLite, the secret from the keychain (or
// EVENTWATCH_CLIENT_SECRET for headless use), fetched at each token renewal, never cached here.
import type { ConnectionView } from '../../../shared/connections'
import type { RequestLimiter } from '../api/limiter'
import type { ConnectionService } from '../connections/service'
import type { Db } from '../store/db'
import { createReportingClient } from './client-factory'
import type { DataSource } from './demo-source'

/** `db` is the diagnostics log its client reports to (client-factory.ts). */
export async function savedSource(db: Db, service: ConnectionService, view: ConnectionView, limiter?: RequestLimiter): Promise<DataSource> {
  const target = await service.target(view.id)
  return {
    target,
    client: createReportingClient(db, target, () => service.credentialsFor(view.id), limiter),
    lookbackDays: view.lookbackDays,
    isDemo: false,
    close: async () => undefined
  }
}

/** Every enabled saved connection, ready to poll. */
export async function enabledSavedSources(db: Db, service: ConnectionService, limiter?: RequestLimiter): Promise<DataSource[]> {
  const enabled = (await service.list()).filter((v) => v.enabled && !v.isDemo)
  return Promise.all(enabled.map((v) => savedSource(db, service, v, limiter)))
}
