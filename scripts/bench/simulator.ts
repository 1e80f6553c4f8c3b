// The ingest benchmark's simulator on its own, for profiling by hand:
//   node --import tsx scripts/bench/simulator.ts [port]
// prints the sync command line to run against it and serves until Ctrl-C.
import { startSimulator } from '../../src/main/core/simulator/server'
import { INGEST_DEFAULTS } from './ingest'

const frozen = Date.now()
const sim = await startSimulator({
  port: Number(process.argv[2] ?? 0),
  seed: INGEST_DEFAULTS.seed,
  liveSessions: INGEST_DEFAULTS.sessions,
  endedSessions: 0,
  viewersPerSession: INGEST_DEFAULTS.viewersPerSession,
  viewersPageSize: INGEST_DEFAULTS.pageSize,
  churnSessions: false,
  clock: () => frozen
})
const c = sim.credentials
process.stdout.write(
  `EVENTWATCH_CLIENT_SECRET=${c.clientSecret} node bin/eventwatch.js sync --once --db /tmp/bench.db ` +
    `--base-url ${sim.baseUrl} --auth-url ${sim.authUrl} --platform-id ${c.platformId} --tenant-id ${c.tenantId} --client-id ${c.clientId}\n`
)
process.on('SIGINT', () => void sim.close().then(() => process.exit(0)))
