// `eventwatch simulate`: the demo reporting API, standalone, until Ctrl-C.
import { Option, type Command } from 'commander'
import { startSimulator } from '../../core/simulator/server'
import { integerOption, secondsOption, untilSignal } from '../options'

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('run the demo reporting API on 127.0.0.1 and print its URLs and demo credentials')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integerOption(0, 65535), 0)
    .option('--seed <n>', 'seed of the simulated world', integerOption(0, 2 ** 31), 42)
    .option('--live <n>', 'live sessions at start', integerOption(0, 500), 6)
    .option('--viewers <n>', 'typical audience of a live session', integerOption(0, 200_000), 1500)
    .option('--incident <seconds>', 'after SECONDS, the first live session loses 25 points of reliability for 10 minutes', secondsOption(0, 86_400))
    .addOption(new Option('--reliability-scale <scale>', 'the scale reliabilityScore is reported on').choices(['0-1', '0-100']).default('0-100'))
    .action(async (opts: { port: number; seed: number; live: number; viewers: number; incident?: number; reliabilityScale: '0-1' | '0-100' }) => {
      const sim = await startSimulator({
        port: opts.port,
        seed: opts.seed,
        liveSessions: opts.live,
        viewersPerSession: opts.viewers,
        reliabilityScale: opts.reliabilityScale,
        ...(opts.incident !== undefined ? { incident: { afterMs: opts.incident * 1000 } } : {})
      })
      const c = sim.credentials
      process.stdout.write(
        [
          'Eventwatch demo simulator (demo data, not a real service)',
          `base URL:      ${sim.baseUrl}`,
          `auth URL:      ${sim.authUrl}`,
          `client ID:     ${c.clientId}`,
          `client secret: ${c.clientSecret}`,
          `platform-id:   ${c.platformId}`,
          `tenant-id:     ${c.tenantId}`,
          `reliability:   reported on ${opts.reliabilityScale}`,
          ...(opts.incident !== undefined ? [`incident:      the first live session drops 25 points in ${opts.incident} s, for 10 minutes`] : []),
          'Press Ctrl-C to stop.',
          ''
        ].join('\n')
      )
      await untilSignal()
      await sim.close()
    })
}
