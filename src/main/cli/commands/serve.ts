// `eventwatch serve`: the browser host — the same UI and app API on 127.0.0.1, until Ctrl-C.
import { Option, type Command } from 'commander'
import { startAppCore } from '../../core/app/start'
import { cacheName, dbOption } from '../db-option'
import { checkTeamServerOptions, hostOrigin, startWebHost, TeamServerConfigError, type TeamServerOptions } from '../../web/server'
import type { LinkBase } from '../../../shared/session-link'
import { PUBLIC_URL_ENV, publicUrlOption } from '../public-url'
import { listenOption, type ListenAddress } from '../listen-address'
import { readFileSync } from 'node:fs'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJsonLine } from '../json-output'
import { integerOption, secondsOption, untilSignal } from '../options'
import { cadencesFor } from '../cadences'
import { secretsFor } from '../secrets'
import { ensureRendererBuilt } from '../renderer-build'
import { addConnectionOptions, namesAConnection, resolveSource, type ConnectionFlags } from '../source'

interface ServeOptions extends ConnectionFlags {
  port: number
  listen?: ListenAddress
  tlsCert?: string
  tlsKey?: string
  db: string
  interval?: number
  demoIncident?: number
  demoLive?: number
  leaseSeconds?: number
  publicUrl?: string
  json?: boolean
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'serve the Eventwatch UI on 127.0.0.1 (for a browser, a wall screen or tests); open the printed address, ' +
        'whose token changes on every launch'
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', integerOption(0, 65535), 4780)
    .option(
      '--listen <host:port>',
      "be the team's server: listen on this address for the users of `eventwatch users` (HTTPS needed beyond loopback)",
      listenOption
    )
    .option('--tls-cert <file>', "the team server's certificate (PEM)")
    .option('--tls-key <file>', "the team server's private key (PEM)")
    .addOption(
      new Option('--public-url <url>', "where people open this server, for the links in alerts (default: the address it listens on)")
        .env(PUBLIC_URL_ENV)
        .argParser(publicUrlOption)
    )
    .addOption(dbOption())
    .option('--interval <seconds>', 'set every poll cadence to this many seconds', secondsOption(1, 3600))
    // For the UI's end-to-end tests: a real alert from the demo data, on cue.
    .addOption(
      new Option('--demo-incident <seconds>', 'after SECONDS, the demo\'s first live session drops 25 points for 10 minutes')
        .argParser(secondsOption(0, 86_400))
        .hideHelp()
    )
    // For the UI's end-to-end tests: how many demo sessions are live at start (the default is 6).
    .addOption(new Option('--demo-live <n>', 'live demo sessions at start').argParser(integerOption(0, 500)).hideHelp())
    // For tests, and for operators who know why: on a team's PostgreSQL database, how long a
    // server's lease of a connection (or a job) lasts, renewed every third of it (default 30 s,
    // so a dead server's connections move within about 40 s). Shorter means faster takeovers and
    // more renewals; a server stalled longer than the renewal period gives its leases up.
    .addOption(
      new Option('--lease-seconds <seconds>', 'lease length on a postgres:// database, renewed every third of it')
        .argParser(secondsOption(3, 3600))
        .hideHelp()
    )
  jsonOption(command, 'its address, and whether it is a team server (one line, then it serves until stopped)')
  withExamples(command, [
    'eventwatch serve --connection Contoso',
    'eventwatch serve --listen 0.0.0.0:8443 --tls-cert server.pem --tls-key server.key --db postgres://eventwatch@db.internal/eventwatch'
  ])
  addConnectionOptions(command).action(async (opts: ServeOptions) => {
    const team = teamOptions(opts)
    const rendererDir = ensureRendererBuilt()
    // With a connection on the command line, poll just that one; else the saved ones (or the demo).
    const named = namesAConnection(opts)
    // The connections' and webhooks' secrets: the keychain for SQLite; sealed in a postgres:// database (a key file).
    const secretsOn = secretsFor(opts.db)
    // The default port may be taken (a second Eventwatch); a port the user chose may not.
    const portChosen = command.getOptionValueSource('port') === 'cli' || team !== undefined
    const port = opts.listen?.port ?? opts.port
    // Alerts link to this server's page: its --public-url, or the address it listens on, known
    // before it listens (the first polls may fire) and corrected once it has (port 0, a taken port).
    let linkBase: LinkBase = { kind: 'server', origin: opts.publicUrl ?? hostOrigin(team, port) }
    const core = await startAppCore({
      linkBase: () => linkBase,
      db: opts.db,
      cadences: cadencesFor(opts.interval),
      secretsOn,
      ...(opts.demoIncident !== undefined ? { demoIncidentAfterSeconds: opts.demoIncident } : {}),
      ...(opts.demoLive !== undefined ? { demoLiveSessions: opts.demoLive } : {}),
      ...(opts.leaseSeconds !== undefined ? { leaseTiming: { lengthMs: opts.leaseSeconds * 1000, renewEveryMs: (opts.leaseSeconds * 1000) / 3 } } : {}),
      ...(named ? { sources: async (store) => [await resolveSource(store, opts, process.env, secretsOn(store))] } : {})
    })
    let host
    try {
      host = await startWebHost({ core, rendererDir, port, ...(team ? { team } : {}) }).catch((error: unknown) => {
        if (portChosen || !isAddressInUse(error)) throw error
        process.stderr.write(`Port ${opts.port} is in use; serving on a free port instead.\n`)
        return startWebHost({ core, rendererDir, port: 0 })
      })
    } catch (error) {
      await core.close()
      if (isAddressInUse(error)) throw new CliError(`port ${port} is in use; pass --port 0 for a free one.`)
      if (error instanceof TeamServerConfigError) throw new CliError(error.message)
      throw error
    }
    if (!opts.publicUrl) linkBase = { kind: 'server', origin: host.origin }
    // Locally, the token in this address is the only way in (see web/access.ts); a team server's
    // users sign in with their own tokens. Tests parse this line.
    if (opts.json) printJsonLine({ url: host.url, team: team !== undefined })
    else process.stdout.write(`Eventwatch is serving on ${host.url}\n`)
    if (team) {
      if (!opts.json) process.stdout.write('Team server: users sign in with the tokens `eventwatch users add` printed.\n')
      // A newcomer's first team server has nobody who could sign in yet: say how.
      if ((await core.users?.list())?.length === 0) {
        process.stderr.write(`No users yet: add one with eventwatch users add NAME --role operator --db ${cacheName(opts.db)}\n`)
      }
    }
    await untilSignal()
    await host.close()
    await core.close()
  })
}

/** The team server's address and certificate, read and checked before anything starts. */
function teamOptions(opts: ServeOptions): TeamServerOptions | undefined {
  if (!opts.listen) {
    if (opts.tlsCert || opts.tlsKey) throw new CliError('--tls-cert and --tls-key go with --listen HOST:PORT.')
    return undefined
  }
  if (Boolean(opts.tlsCert) !== Boolean(opts.tlsKey)) throw new CliError('give both --tls-cert and --tls-key, or neither.')
  const read = (file: string, what: string): string => {
    try {
      return readFileSync(file, 'utf8')
    } catch (error) {
      throw new CliError(`cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`)
    }
  }
  const team = {
    host: opts.listen.host,
    ...(opts.tlsCert && opts.tlsKey ? { tls: { cert: read(opts.tlsCert, 'certificate'), key: read(opts.tlsKey, 'private key') } } : {})
  }
  try {
    checkTeamServerOptions(team)
  } catch (error) {
    if (error instanceof TeamServerConfigError) throw new CliError(error.message)
    throw error
  }
  return team
}

const isAddressInUse = (error: unknown): boolean => (error as { code?: string }).code === 'EADDRINUSE'
