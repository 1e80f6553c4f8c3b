// `eventwatch simulate`: the demo reporting API, standalone, until Ctrl-C.
import { Option, type Command } from 'commander'
import { startSimulator } from '../../core/simulator/server'
import { withExamples } from '../examples'
import { jsonOption, printJsonLine } from '../json-output'
import { integerOption, secondsOption, untilSignal } from '../options'

interface SimulateOptions {
  port: number
  seed: number
  live: number
  viewers: number
  incident?: number
  reliabilityScale: '0-1' | '0-100'
  json?: boolean
}

export function registerSimulate(program: Command): void {
  const command = program
    .command('simulate')
    .description('run the demo reporting API on 127.0.0.1 and print its URLs and demo credentials')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integerOption(0, 65535), 0)
    .option('--seed <n>', 'seed of the simulated world', integerOption(0, 2 ** 31), 42)
    .option('--live <n>', 'live sessions at start', integerOption(0, 500), 6)
    .option('--viewers <n>', 'typical audience of a live session', integerOption(0, 200_000), 1500)
    .option('--incident <seconds>', 'after SECONDS, the first live session loses 25 points of reliability for 10 minutes', secondsOption(0, 86_400))
    .addOption(new Option('--reliability-scale <scale>', 'the scale reliabilityScore is reported on').choices(['0-1', '0-100']).default('0-100'))
  withExamples(jsonOption(command, 'its URLs and demo credentials (one line, then it runs until stopped)'), ['eventwatch simulate --port 8090 --incident 60'])
  command.action(async (opts: SimulateOptions) => {
    const sim = await startSimulator({
      port: opts.port,
      seed: opts.seed,
      liveSessions: opts.live,
      viewersPerSession: opts.viewers,
      reliabilityScale: opts.reliabilityScale,
      ...(opts.incident !== undefined ? { incident: { afterMs: opts.incident * 1000 } } : {})
    })
    const c = sim.credentials
    const said = {
      baseUrl: sim.baseUrl,
      authUrl: sim.authUrl,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      platformId: c.platformId,
      tenantId: c.tenantId,
      reliabilityScale: opts.reliabilityScale,
      incidentAfterSeconds: opts.incident ?? null
    }
    if (opts.json) printJsonLine(said)
    else process.stdout.write(humanLines(said))
    await untilSignal()
    await sim.close()
  })
}

/** What `simulate` prints: the fields of its --json line, in words. */
function humanLines(s: { baseUrl: string; authUrl: string; clientId: string; clientSecret: string; platformId: string; tenantId: string; reliabilityScale: string; incidentAfterSeconds: number | null }): string {
  return [
    'Eventwatch demo simulator (demo data, not a real service)',
    `base URL:      ${s.baseUrl}`,
    `auth URL:      ${s.authUrl}`,
    `client ID:     ${s.clientId}`,
    `client secret: ${s.clientSecret}`,
    `platform-id:   ${s.platformId}`,
    `tenant-id:     ${s.tenantId}`,
    `reliability:   reported on ${s.reliabilityScale}`,
    ...(s.incidentAfterSeconds !== null ? [`incident:      the first live session drops 25 points in ${s.incidentAfterSeconds} s, for 10 minutes`] : []),
    'Press Ctrl-C to stop.',
    ''
  ].join('\n')
}
