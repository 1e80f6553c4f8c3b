// `eventwatch connections`: save, list, test, enable/disable and remove connections without the
// desktop app (a headless NOC box), through the app API as the desktop's Settings does (audited,
// with the OS user as author). Secrets go to the OS keychain, from EVENTWATCH_CLIENT_SECRET or a
// hidden prompt — never from the command line.
import { readFileSync } from 'node:fs'
import { Option, type Command } from 'commander'
import { RELIABILITY_SCALE_SETTINGS, type ReliabilityScaleSetting } from '../../../shared/reliability'
import { plainText } from '../../../shared/plain-text'
import type { ConnectionTarget } from '../../core/api/connection'
import type { AppCore } from '../../core/app/types'
import { environmentSecret } from '../../core/connections/env-secret'
import { SECRET_ENV } from '../../core/connections/service'
import { dbOption } from '../db-option'
import { ask, sameName, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'
import { integerOption } from '../options'
import { promptSecret } from '../prompt'
import { refuseSecretsEarly, secretsPlace } from '../secrets'


/** A saved connection by its name (any case); the demo's is no saved one. */
export async function connectionNamed(core: AppCore, name: string) {
  const view = (await ask(core, 'listConnections', {})).find((c) => !c.isDemo && sameName(c.name, name))
  if (!view) throw new CliError(`no saved connection named "${name}".`)
  return view
}

const ADD_FLAGS: FlagNames = {
  'settings.name': '<name>',
  'settings.baseUrl': '--base-url',
  'settings.authUrl': '--auth-url',
  'settings.platformId': '--platform-id',
  'settings.tenantId': '--tenant-id',
  'settings.clientId': '--client-id',
  'settings.origin': '--origin',
  'settings.referer': '--referer',
  'settings.lookbackDays': '--lookback-days',
  'settings.reliabilityScale': '--reliability-scale',
  'settings.proxyUrl': '--proxy',
  'settings.caCertificate': '--ca-cert',
  secret: 'the client secret'
}

interface AddOptions extends Pick<ConnectionTarget, 'baseUrl' | 'authUrl' | 'platformId' | 'tenantId' | 'clientId'> {
  db: string
  json?: boolean
  origin?: string
  referer?: string
  lookbackDays?: number
  reliabilityScale?: ReliabilityScaleSetting
  disabled?: boolean
  proxy?: string
  caCert?: string
}

export const PROXY_PASSWORD_ENV = 'EVENTWATCH_PROXY_PASSWORD'

/** --proxy as saved: a password never on the command line (ps shows it), but from the environment or a prompt. */
async function proxyWithPassword(proxy: string | undefined, name: string): Promise<string | undefined> {
  if (!proxy) return undefined
  let url: URL
  try {
    url = new URL(proxy)
  } catch {
    return proxy // the schema says what is wrong with it
  }
  if (url.password) {
    throw new CliError(`--proxy must not carry a password (every user of this machine can read a command line): give it in ${PROXY_PASSWORD_ENV} or at the prompt.`)
  }
  if (!url.username) return proxy
  const password = process.env[PROXY_PASSWORD_ENV] || (await promptSecret(`Proxy password for ${url.username} (${name}, empty for none): `))
  if (password) url.password = password
  return url.href
}

function readCaCertificate(file: string | undefined): string | undefined {
  if (!file) return undefined
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new CliError(`cannot read the CA certificate file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
}

export function registerConnections(program: Command): void {
  const connections = withExamples(
    program.command('connections').description('manage saved connections (secrets in the OS keychain; on a postgres:// database, sealed under EVENTWATCH_SECRET_KEY_FILE)'),
    ['eventwatch connections list']
  )
  const command = (nameAndArgs: string, description: string, example: string): Command =>
    withExamples(connections.command(nameAndArgs).description(description), [example])

  jsonOption(command('list', 'list saved connections', 'eventwatch connections list --json | jq -r \'.[].name\''), 'the connections')
    .addOption(dbOption())
    .action((opts: { db: string; json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const list = await ask(core, 'listConnections', {})
        if (opts.json) return printJson(list)
        if (list.length === 0) return void process.stdout.write('No connections saved: the demo simulator is used.\n')
        for (const c of list) {
          process.stdout.write(
            `${plainText(c.name)}\t${c.enabled ? 'enabled' : 'disabled'}\t${plainText(c.baseUrl)}\tplatform ${plainText(c.platformId)}\ttenant ${plainText(c.tenantId)}\t` +
              `secret ${c.secretStored ? 'stored' : 'missing'}\treliability ${c.reliabilityScale.value} (${plainText(c.reliabilityScale.reason)})` +
              `${c.proxyUrl ? `\tproxy ${plainText(c.proxyUrl)}` : ''}${c.caCertificate ? '\town CA' : ''}\n`
          )
        }
      })
    )

  jsonOption(
    command(
      'add <name>',
      `save a connection; the secret comes from ${SECRET_ENV} or a hidden prompt`,
      `${SECRET_ENV}=… eventwatch connections add Contoso --base-url https://api.example.com --auth-url https://auth.example.com --platform-id P --tenant-id T --client-id C`
    ),
    'the saved connection'
  )
    .requiredOption('--base-url <url>', 'API base URL')
    .requiredOption('--auth-url <url>', 'auth URL')
    .requiredOption('--platform-id <id>', 'platform-id')
    .requiredOption('--tenant-id <id>', 'tenant-id')
    .requiredOption('--client-id <id>', 'client ID')
    .option('--origin <value>', 'Origin header to send')
    .option('--referer <value>', 'Referer header to send')
    .option('--lookback-days <days>', 'how far back to list sessions', integerOption(1, 365))
    .addOption(
      new Option('--reliability-scale <scale>', 'the scale its service reports reliabilityScore on (auto: decided from its data)')
        .choices(RELIABILITY_SCALE_SETTINGS)
        .default('auto')
    )
    .option('--proxy <url>', `its own proxy, http://[user@]host:port (the password from ${PROXY_PASSWORD_ENV} or a prompt)`)
    .option('--ca-cert <file>', 'an extra CA certificate (PEM file) to trust for it')
    .option('--disabled', 'save it disabled')
    .addOption(dbOption())
    .action((name: string, opts: AddOptions) => {
      refuseSecretsEarly(opts.db)
      return withAppCore(opts.db, async (core) => {
        const caCertificate = readCaCertificate(opts.caCert)
        const secret = environmentSecret() || (await promptSecret(`Client secret for ${name}: `))
        if (!secret) throw new CliError('an empty client secret cannot be saved.')
        const proxyUrl = await proxyWithPassword(opts.proxy, name)
        const settings = {
          name,
          baseUrl: opts.baseUrl,
          authUrl: opts.authUrl,
          platformId: opts.platformId,
          tenantId: opts.tenantId,
          clientId: opts.clientId,
          ...(opts.origin ? { origin: opts.origin } : {}),
          ...(opts.referer ? { referer: opts.referer } : {}),
          ...(proxyUrl ? { proxyUrl } : {}),
          ...(caCertificate ? { caCertificate } : {}),
          ...(opts.lookbackDays ? { lookbackDays: opts.lookbackDays } : {}),
          ...(opts.reliabilityScale ? { reliabilityScale: opts.reliabilityScale } : {}),
          enabled: !opts.disabled
        }
        const view = await ask(core, 'saveConnection', { settings, secret }, ADD_FLAGS)
        if (opts.json) return printJson(view)
        const network = [view.proxyUrl ? `through proxy ${view.proxyUrl}` : '', view.caCertificate ? 'trusting its own CA' : '']
          .filter(Boolean)
          .join(', ')
        process.stdout.write(`Saved "${plainText(view.name)}" (secret in ${secretsPlace(opts.db)}${network ? `; ${plainText(network)}` : ''}).\n`)
      })
    })

  jsonOption(command('test <name>', 'fetch a token and the first page of sessions, and say what worked', 'eventwatch connections test Contoso'), 'the steps and whether each worked')
    .addOption(dbOption())
    .action((name: string, opts: { db: string; json?: boolean }) =>
      withAppCore(opts.db, async (core) => {
        const view = await connectionNamed(core, name)
        const report = await ask(core, 'testConnection', { id: view.id })
        if (opts.json) printJson(report)
        else for (const step of report.steps) process.stdout.write(`${step.ok ? 'ok  ' : 'FAIL'} ${step.step}: ${plainText(step.message)}\n`)
        if (!report.ok) throw new CliError(`connection "${view.name}" does not work yet (see ${opts.json ? 'its steps' : 'above'}).`, 1)
      })
    )

  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    command(`${verb} <name>`, `${verb} polling of a saved connection`, `eventwatch connections ${verb} Contoso`)
      .addOption(dbOption())
      .action((name: string, opts: { db: string }) =>
        withAppCore(opts.db, async (core) => {
          const view = await ask(core, 'setConnectionEnabled', { id: (await connectionNamed(core, name)).id, enabled })
          process.stdout.write(`"${plainText(view.name)}" is ${view.enabled ? 'enabled' : 'disabled'}.\n`)
        })
      )
  }

  command('remove <name>', 'delete a connection, its keychain entry and its cached data', 'eventwatch connections remove Contoso')
    .addOption(dbOption())
    .action((name: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        const view = await connectionNamed(core, name)
        await ask(core, 'deleteConnection', { id: view.id })
        process.stdout.write(`Removed "${plainText(view.name)}".\n`)
      })
    )
}
