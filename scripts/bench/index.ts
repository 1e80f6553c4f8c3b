// `npm run bench`: the performance figures of issue 4, measured in one run, each with its goal.
//   1. ingest: `sync --once` vs a fetch-and-parse baseline, whole processes (ingest.ts)
//   2. raw store ceiling: storeViewerList vs a bare insert of the same rows (store.ts)
//   3. queries on a 10,000-session / 2M-snapshot / 500,000-viewer cache (queries.ts)
//   4. memory: peak RSS of the sync processes of part 1
//   5. one list of a million viewers: stored whole, peak RSS (large.ts; `--viewers N` for another size)
//   6. maintenance windows: adding one and an alerts page, 100 windows against 10,000 (maintenance.ts)
//   7. the 10 s clock: a quiet tick, a full evaluation per connection against time alone (clock.ts)
//   8. what the async Store's promises cost on the poll path and a viewer page (promises.ts)
//   9. a poll's judgement: every session against the one the poll touched (judgement.ts)
//  10. a team on PostgreSQL: viewer ingest against SQLite, the push lag between two `serve`
//      processes with 200 event streams, the takeover after SIGKILL (team.ts; skipped without PostgreSQL)
// Exits 0 whatever the figures say: it is a report. `npm run bench -- ingest store` runs parts.
import { cpus, loadavg } from 'node:os'
import { benchClock } from './clock'
import { benchIngest } from './ingest'
import { benchJudgement } from './judgement'
import { benchLarge, LARGE_DEFAULT_VIEWERS } from './large'
import { benchMaintenance } from './maintenance'
import { benchPromises } from './promises'
import { benchQueries } from './queries'
import { log, verdict, type Figure } from './stats'
import { benchStore } from './store'
import { benchTeam } from './team'

const args = process.argv.slice(2)
const viewersAt = args.indexOf('--viewers')
const largeViewers = viewersAt >= 0 ? Number(args[viewersAt + 1]) : LARGE_DEFAULT_VIEWERS
const parts = args.filter((a, i) => !a.startsWith('-') && (viewersAt < 0 || i !== viewersAt + 1))
const wanted = (name: string): boolean => parts.length === 0 || parts.includes(name)

const started = performance.now()
log(`eventwatch bench — Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
const figures: Figure[] = []
const section = async (name: string, run: () => Figure[] | Promise<Figure[]>): Promise<void> => {
  if (!wanted(name)) return
  log(`\n== ${name} ==`)
  try {
    figures.push(...(await run()))
  } catch (error) {
    log(`${name}: FAILED: ${error instanceof Error ? error.message : String(error)}`)
    figures.push({ part: name, name: 'failed to run', value: 'n/a', goal: 'runs', met: false })
  }
}
await section('ingest', () => benchIngest())
await section('store', () => benchStore())
await section('queries', () => benchQueries())
await section('large', () => benchLarge(largeViewers))
await section('maintenance', () => benchMaintenance())
await section('clock', () => benchClock())
await section('promises', () => benchPromises())
await section('judgement', () => benchJudgement())
await section('team', () => benchTeam())

const rows = figures.map((f) => [f.part, f.name, f.value, f.goal, f.goal === '(reference)' ? '' : verdict(f.met) + (f.note ? ` (${f.note})` : '')])
const header = ['part', 'figure', 'value', 'goal', 'verdict']
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ').trimEnd()
log(`\n== summary (${((performance.now() - started) / 1000).toFixed(0)} s, load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}) ==`)
log(line(header))
log(widths.map((w) => '-'.repeat(w)).join('-+-'))
for (const r of rows) log(line(r as string[]))
const judged = figures.filter((f) => f.goal !== '(reference)')
const missed = judged.filter((f) => !f.met)
log(`\n${judged.length - missed.length} of ${judged.length} goals met${missed.length ? `; NOT MET: ${missed.map((f) => f.name).join('; ')}` : ''}`)
