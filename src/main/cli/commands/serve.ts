// `eventwatch serve`: the browser host — the same UI and app API on 127.0.0.1, until Ctrl-C.
import { Option, type Command } from 'commander'
import { startAppCore } from '../../core/app/start'
import { defaultDbFile } from '../../core/paths'
import { startWebHost } from '../../web/server'
import { CliError } from '../errors'
import { integerOption, secondsOption, untilSignal } from '../options'
import { cadencesFor } from '../cadences'
import { ensureRendererBuilt } from '../renderer-build'
import { addConnectionOptions, namesAConnection, resolveSource, type ConnectionFlags } from '../source'

interface ServeOptions extends ConnectionFlags {
  port: number
  db: string
  interval?: number
  demoIncident?: number
  demoLive?: number
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'serve the Eventwatch UI on 127.0.0.1 (for a browser, a wall screen or tests); open the printed address, ' +
        'whose token changes on every launch'
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', integerOption(0, 65535), 4780)
    .option('--db <file>', "SQLite cache file (default: the desktop app's; EVENTWATCH_DB overrides)", defaultDbFile())
    .option('--interval <seconds>', 'set every poll cadence to this many seconds', secondsOption(1, 3600))
    // For the UI's end-to-end tests: a real alert from the demo data, on cue.
    .addOption(
      new Option('--demo-incident <seconds>', 'after SECONDS, the demo\'s first live session drops 25 points for 10 minutes')
        .argParser(secondsOption(0, 86_400))
        .hideHelp()
    )
    // For the UI's end-to-end tests: how many demo sessions are live at start (the default is 6).
    .addOption(new Option('--demo-live <n>', 'live demo sessions at start').argParser(integerOption(0, 500)).hideHelp())
  addConnectionOptions(command).action(async (opts: ServeOptions) => {
    const rendererDir = ensureRendererBuilt()
    // With a connection on the command line, poll just that one; else the saved ones (or the demo).
    const named = namesAConnection(opts)
    const core = await startAppCore({
      dbFile: opts.db,
      cadences: cadencesFor(opts.interval),
      ...(opts.demoIncident !== undefined ? { demoIncidentAfterSeconds: opts.demoIncident } : {}),
      ...(opts.demoLive !== undefined ? { demoLiveSessions: opts.demoLive } : {}),
      ...(named ? { sources: async (db) => [await resolveSource(db, opts)] } : {})
    })
    // The default port may be taken (a second Eventwatch); a port the user chose may not.
    const portChosen = command.getOptionValueSource('port') === 'cli'
    let host
    try {
      host = await startWebHost({ core, rendererDir, port: opts.port }).catch((error: unknown) => {
        if (portChosen || !isAddressInUse(error)) throw error
        process.stderr.write(`Port ${opts.port} is in use; serving on a free port instead.\n`)
        return startWebHost({ core, rendererDir, port: 0 })
      })
    } catch (error) {
      await core.close()
      if (isAddressInUse(error)) throw new CliError(`port ${opts.port} is in use; pass --port 0 for a free one.`)
      throw error
    }
    // The token in this address is the only way in (see web/access.ts); tests parse this line.
    process.stdout.write(`Eventwatch is serving on ${host.url}\n`)
    await untilSignal()
    await host.close()
    await core.close()
  })
}

const isAddressInUse = (error: unknown): boolean => (error as { code?: string }).code === 'EADDRINUSE'
