// `--connection NAME`: a connection saved in the cache, its secret from the OS keychain.
import { ConnectionService } from '../core/connections/service'
import { savedSource } from '../core/app/saved-sources'
import type { DataSource } from '../core/app/demo-source'
import type { Db } from '../core/store/db'
import type { Store } from '../core/store/interface/store'
import { osKeychain } from '../core/secrets/keychain'
import { CliError } from './errors'

/** `db`: the diagnostics log its client reports to (client-factory.ts). */
export async function savedConnectionSource(db: Db, store: Store, name: string, env: NodeJS.ProcessEnv): Promise<DataSource> {
  const service = new ConnectionService(store, osKeychain())
  const view = await service.findByName(name)
  if (!view) {
    const known = (await service.list()).map((c) => c.name)
    const hint = known.length ? ` Saved connections: ${known.join(', ')}.` : ' No connection is saved yet.'
    throw new CliError(`no saved connection named "${name}".${hint}`)
  }
  // Fail now, in plain words, rather than at the first token request.
  await service.credentialsFor(view.id, env)
  return savedSource(db, service, view)
}
