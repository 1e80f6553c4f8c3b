// `eventwatch sync`: the app's core without its HTTP face, fed from one connection (the demo
// simulator when none is given), once or until SIGINT/SIGTERM. It alerts exactly as `serve` does
// (issue 25): the same alert rules into the same history, webhooks through the durable outbox,
// critical repeats, the blind clock, maintenance windows and retention. `--once` makes one complete
// pass, sends what it queued, and exits 0 only when everything was fetched; otherwise one line on
// stderr names the cause in the taxonomy's words, and whatever was fetched whole is kept. In a
// terminal each alert that fires or resolves is one line on stderr.
import type { Command } from 'commander'
import type { AlertsChanged } from '../../../shared/alerts'
import type { Status } from '../../../shared/domain'
import { ERROR_KIND_LABELS } from '../../../shared/error-kinds'
import type { CompletedPass } from '../../core/app/pollers'
import { startAppCore } from '../../core/app/start'
import type { AppCoreOptions, LocalAppCore } from '../../core/app/types'
import { dbOption } from '../db-option'
import { cadencesFor } from '../cadences'
import { CliError, exitCodeOf } from '../errors'
import { secondsOption } from '../options'
import { secretsFor } from '../secrets'
import { createProgress, type Progress } from '../progress'
import { progressStream } from '../terminal'
import { addConnectionOptions, resolveSource, type ConnectionFlags } from '../source'
import { alertLine, passRecord, passSummary } from '../sync-lines'
import { withExamples } from '../examples'
import { jsonOption, printJsonLine } from '../json-output'

interface SyncOptions extends ConnectionFlags {
  once?: boolean
  db: string
  interval?: number
  deadline?: number
  json?: boolean
}

/** After `--once`'s pass, its webhook deliveries get this long; what is not sent waits in the outbox for the next run. */
const DELIVERY_DEADLINE_MS = 30_000

export function registerSync(program: Command): void {
  const command = program
    .command('sync')
    .description('fill the local cache from a connection (the demo simulator when none is given), alerting as serve does')
    .option('--once', 'make one complete pass, send its webhooks and exit (0 when everything was fetched)')
    .addOption(dbOption())
    .option('--interval <seconds>', 'set every poll cadence to this many seconds', secondsOption(1, 3600))
    .option('--deadline <seconds>', 'bound on one whole pass (default 900); what is whole by then is kept', secondsOption(1, 86_400))
  jsonOption(command, 'each pass, and each alert that fires or resolves, one line each,')
  withExamples(command, [
    'eventwatch sync --once --connection Contoso --db /var/lib/eventwatch/eventwatch.db',
    'eventwatch sync --interval 15 --json | jq -c \'select(.type == "alert")\''
  ])
  addConnectionOptions(command).action(async (opts: SyncOptions) => {
    // One signal stops everything at once: waits, requests in flight, the list in hand, deliveries.
    const stop = new AbortController()
    const onSignal = (): void => stop.abort()
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    const progress = createProgress(progressStream(process.stderr))
    try {
      if (opts.once) await syncOnce(opts, progress, stop.signal)
      else await syncUntil(opts, progress, stop.signal)
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  })
}

/** The app's core, polling what the command line names; its alerts told on stderr. */
async function startSyncCore(
  opts: SyncOptions,
  progress: Progress,
  headless: Pick<AppCoreOptions, 'passesOnRequest' | 'leasePasses' | 'onPolled'>
): Promise<LocalAppCore> {
  const secretsOn = secretsFor(opts.db)
  const core = await startAppCore({
    db: opts.db,
    cadences: cadencesFor(opts.interval),
    secretsOn,
    sources: async (store) => [await resolveSource(store, opts, process.env, secretsOn(store))],
    ...(opts.deadline !== undefined ? { passDeadlineMs: opts.deadline * 1000 } : {}),
    ...headless
  })
  tellAlerts(core, progress, process.stderr.isTTY === true, opts.json === true)
  return core
}

/**
 * A line per alert that fires or resolves, in a terminal only (like the progress bar), from the
 * same push as every face's notifications; anywhere, a line when the alerts could not be judged.
 */
function tellAlerts(core: LocalAppCore, progress: Progress, inTerminal: boolean, json: boolean): void {
  let problemTold: string | null = null
  core.onEvent((name, payload) => {
    if (name === 'statusChanged') {
      const { problem } = payload as Status
      if (problem !== null && problem !== problemTold) progress.log(problem)
      problemTold = problem
    }
    if (name !== 'alertsChanged') return
    const change = payload as AlertsChanged
    if (json) {
      for (const alert of change.fired) printJsonLine({ type: 'alert', change: 'fired', alert })
      for (const alert of change.resolved) printJsonLine({ type: 'alert', change: 'resolved', alert })
    }
    if (!inTerminal) return
    for (const alert of change.fired) progress.log(alertLine('ALERT', alert))
    for (const alert of change.resolved) progress.log(alertLine('RESOLVED', alert))
  })
}

async function syncOnce(opts: SyncOptions, progress: Progress, stopped: AbortSignal): Promise<void> {
  // On a team's database the pass takes its connection's lease: never beside a server polling it.
  const core = await startSyncCore(opts, progress, { passesOnRequest: true, leasePasses: true })
  try {
    const passes = await core.completePasses({
      signal: stopped,
      onProgress: (p) =>
        progress.update({ phase: p.phase, done: p.done, total: p.total, detail: `${p.viewers.toLocaleString('en-US')} viewers` })
    })
    for (const { connection, report } of passes) {
      progress.done(passSummary(connection, report))
      if (opts.json) printJsonLine(passRecord(connection, report))
    }
    // What the pass queued goes out before the process ends, within a bound; a signal ends it too.
    const { waiting } = await core.deliverDue(AbortSignal.any([stopped, AbortSignal.timeout(DELIVERY_DEADLINE_MS)]))
    if (waiting > 0) {
      const whose = waiting === 1 ? '1 webhook' : `${waiting} webhooks`
      progress.log(`webhooks: deliveries to ${whose} wait in the outbox for the next run (Diagnostics says why)`)
    }
    failUnlessWhole(passes)
  } finally {
    await core.close()
  }
}

/** Exit 0 only when everything was fetched: else the first problem, in the taxonomy's words. */
function failUnlessWhole(passes: readonly CompletedPass[]): void {
  const problems = passes.flatMap((p) => p.report.problems)
  const problem = problems[0]
  if (problem) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ''
    throw new CliError(`${ERROR_KIND_LABELS[problem.kind]}: ${problem.message}${more}`, exitCodeOf(problem.kind))
  }
  if (passes.some((p) => p.report.stopped)) throw new CliError('stopped before the pass was complete; what was fetched is kept.', 1)
}

async function syncUntil(opts: SyncOptions, progress: Progress, stopped: AbortSignal): Promise<void> {
  const core = await startSyncCore(opts, progress, {
    onPolled: (connection, report) => {
      progress.log(passSummary(connection, report))
      if (opts.json) printJsonLine(passRecord(connection, report))
      for (const problem of report.problems.slice(0, 3)) progress.log(`  ${ERROR_KIND_LABELS[problem.kind]}: ${problem.message}`)
    }
  })
  try {
    if (!stopped.aborted) await new Promise((resolve) => stopped.addEventListener('abort', resolve, { once: true }))
  } finally {
    await core.close() // the unit of work in hand ends at once; what is whole is kept
  }
}
