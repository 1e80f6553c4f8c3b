// What `[CONNECTION]` means on the command line: a saved connection (--connection NAME, secret
// from the keychain), an ad-hoc one (--base-url … --client-id, secret from
// EVENTWATCH_CLIENT_SECRET), or, with neither, the demo simulator. Secrets never come from argv.
import { createHash } from 'node:crypto'
import type { Command } from 'commander'
import { ConnectionInputSchema } from '../../shared/connections'
import { createReportingClient } from '../core/app/client-factory'
import { startDemoSource, type DataSource } from '../core/app/demo-source'
import type { ConnectionTarget } from '../core/api/connection'
import type { Store } from '../core/store/interface/store'
import type { SecretStore } from '../core/secrets/keychain'
import { environmentSecret } from '../core/connections/env-secret'
import { CliError } from './errors'
import { savedConnectionSource } from './saved-connection'

export interface ConnectionFlags {
  connection?: string
  baseUrl?: string
  authUrl?: string
  platformId?: string
  tenantId?: string
  clientId?: string
}

const AD_HOC_FLAGS = [
  ['baseUrl', '--base-url'],
  ['authUrl', '--auth-url'],
  ['platformId', '--platform-id'],
  ['tenantId', '--tenant-id'],
  ['clientId', '--client-id']
] as const

export function addConnectionOptions(command: Command): Command {
  return command
    .option('--connection <name>', 'a saved connection (its secret from the OS keychain; on a postgres:// database, sealed in it)')
    .option('--base-url <url>', 'API base URL of an unsaved connection (secret in EVENTWATCH_CLIENT_SECRET)')
    .option('--auth-url <url>', 'auth URL (the token endpoint is <auth-url>/v2/auth/token)')
    .option('--platform-id <id>', 'platform-id header value')
    .option('--tenant-id <id>', 'tenant-id header value')
    .option('--client-id <id>', 'client ID of the API client')
}

/** Whether the command line names a connection at all (else: saved ones, or the demo). */
export function namesAConnection(flags: ConnectionFlags): boolean {
  return flags.connection !== undefined || AD_HOC_FLAGS.some(([key]) => flags[key] !== undefined)
}

/** `store`: the connections, and the diagnostics log a client reports to; `secrets`: where a saved one's secret is kept. */
export async function resolveSource(
  store: Store,
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
  secrets?: SecretStore
): Promise<DataSource> {
  const given = AD_HOC_FLAGS.filter(([key]) => flags[key] !== undefined)
  if (flags.connection !== undefined && given.length > 0) {
    throw new CliError('use either --connection NAME or the --base-url … --client-id options, not both.')
  }
  if (flags.connection !== undefined) return savedConnectionSource(store, flags.connection, env, secrets)
  if (given.length === 0) return startDemoSource(store)

  const missing = AD_HOC_FLAGS.filter(([key]) => flags[key] === undefined).map(([, flag]) => flag)
  if (missing.length > 0) throw new CliError(`an unsaved connection also needs ${missing.join(', ')}.`)
  const secret = environmentSecret(env)
  if (!secret) throw new CliError('set EVENTWATCH_CLIENT_SECRET to the client secret of this connection.')

  const parsed = ConnectionInputSchema.safeParse({
    name: 'command line',
    baseUrl: flags.baseUrl,
    authUrl: flags.authUrl,
    platformId: flags.platformId,
    tenantId: flags.tenantId,
    clientId: flags.clientId
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const flag = AD_HOC_FLAGS.find(([key]) => key === issue?.path[0])?.[1] ?? 'connection'
    throw new CliError(`${flag}: ${issue?.message ?? 'invalid value'}.`)
  }
  // The same tenant on the same service is the same connection run after run, so its history
  // accumulates under one id.
  const key = [parsed.data.baseUrl, parsed.data.platformId, parsed.data.tenantId, parsed.data.clientId].join('\n')
  const id = `cli-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`
  const target: ConnectionTarget = {
    id,
    name: `${parsed.data.tenantId} @ ${new URL(parsed.data.baseUrl).host} (command line)`,
    baseUrl: parsed.data.baseUrl,
    authUrl: parsed.data.authUrl,
    platformId: parsed.data.platformId,
    tenantId: parsed.data.tenantId,
    clientId: parsed.data.clientId
  }
  // Kept so its sessions have a home, but disabled: the app holds no secret to poll it with.
  const row = { ...target, isDemo: false, enabled: false }
  await store.withTransaction((tx) => tx.connections.upsert(row, Date.now()))
  const credentials = { clientId: target.clientId, clientSecret: secret }
  return {
    target,
    client: createReportingClient(store, target, async () => credentials),
    lookbackDays: 7,
    isDemo: false,
    close: async () => undefined
  }
}
