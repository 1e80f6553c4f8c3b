// `--connection NAME`: a connection saved in the cache, its secret from the OS keychain (or, with
// on a postgres:// database, sealed in it under EVENTWATCH_SECRET_KEY_FILE: `secrets`, chosen by cli/secrets.ts).
import { ConnectionService } from '../core/connections/service'
import { savedSource } from '../core/app/saved-sources'
import type { DataSource } from '../core/app/demo-source'
import type { Store } from '../core/store/interface/store'
import { osKeychain, type SecretStore } from '../core/secrets/keychain'
import { CliError } from './errors'

export async function savedConnectionSource(
  store: Store,
  name: string,
  env: NodeJS.ProcessEnv,
  secrets: SecretStore = osKeychain()
): Promise<DataSource> {
  const service = new ConnectionService(store, secrets)
  const view = await service.findByName(name)
  if (!view) {
    const known = (await service.list()).map((c) => c.name)
    const hint = known.length ? ` Saved connections: ${known.join(', ')}.` : ' No connection is saved yet.'
    throw new CliError(`no saved connection named "${name}".${hint}`)
  }
  // Fail now, in plain words, rather than at the first token request.
  await service.credentialsFor(view.id, env)
  return savedSource(store, service, view)
}
