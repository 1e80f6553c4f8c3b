// `eventwatch sync`: fill the cache from one connection (the demo simulator when none is given),
// once or until SIGINT/SIGTERM. `--once` exits 0 only when everything was fetched; otherwise one
// line on stderr names the cause in the taxonomy's words, and whatever was fetched whole is kept.
// Every pass is judged by the same alert rules as the app, into the same history; in a terminal
// each alert that fires or resolves is one line on stderr.
import type { Command } from 'commander'
import { ERROR_KIND_LABELS } from '../../../shared/error-kinds'
import { endHeading } from '../../../shared/alert-end'
import type { Alert } from '../../../shared/alerts'
import { plainText, shorten } from '../../../shared/plain-text'
import { AlertEvaluator, type Evaluation } from '../../core/alerts/evaluator'
import { getAlerts } from '../../core/store/alerts'
import type { DataSource } from '../../core/app/demo-source'
import { Verdicts } from '../../core/app/verdicts'
import { defaultDbFile } from '../../core/paths'
import { openDatabase, type Db } from '../../core/store/db'
import type { ViewerListStore } from '../../core/store/viewer-store'
import { startViewerWriter } from '../../core/store/viewer-writer'
import { Poller } from '../../core/sync/poller'
import { cadencesFor } from '../cadences'
import { recordedSyncPass } from '../../core/sync/recorded-pass'
import type { CutShortListing, SyncReport } from '../../core/sync/sync-pass'
import { CliError, exitCodeOf } from '../errors'
import { secondsOption, untilSignal } from '../options'
import { createProgress, type Progress } from '../progress'
import { addConnectionOptions, resolveSource, type ConnectionFlags } from '../source'

interface SyncOptions extends ConnectionFlags {
  once?: boolean
  db: string
  interval?: number
  deadline?: number
}

export function registerSync(program: Command): void {
  const command = program
    .command('sync')
    .description('fill the local cache from a connection (the demo simulator when none is given)')
    .option('--once', 'make one complete pass and exit (0 when everything was fetched)')
    .option('--db <file>', 'SQLite cache file (default: the desktop app\'s; EVENTWATCH_DB overrides)', defaultDbFile())
    .option('--interval <seconds>', 'set every poll cadence to this many seconds', secondsOption(1, 3600))
    .option('--deadline <seconds>', 'bound on one whole pass (default 900); what is whole by then is kept', secondsOption(1, 86_400))
  addConnectionOptions(command).action(async (opts: SyncOptions) => {
    const db = openDatabase(opts.db)
    let source: DataSource | undefined
    let viewerStore: ViewerListStore | undefined
    try {
      source = await resolveSource(db, opts)
      // Viewer lists are stored on a second thread while this one fetches and parses.
      viewerStore = startViewerWriter({ file: opts.db })
      const progress = createProgress(process.stderr)
      const alerts = alertReporter(db, source, progress, process.stderr.isTTY === true)
      const deadlineMs = opts.deadline === undefined ? undefined : opts.deadline * 1000
      if (opts.once) await syncOnce(db, source, progress, viewerStore, alerts, deadlineMs)
      else await syncUntilSignal(db, source, progress, viewerStore, alerts, opts.interval, deadlineMs)
    } finally {
      await viewerStore?.close()
      await source?.close()
      db.close()
    }
  })
}

/** Judges the cache after a pass; `lastSuccessAt` is null when the pass reached nothing. */
type AlertReporter = (lastSuccessAt: number | null) => void

/** The alert rules after each pass, and a line per alert that fired or resolved (terminal only, like the progress bar). */
function alertReporter(db: Db, source: DataSource, progress: Progress, inTerminal: boolean): AlertReporter {
  const evaluator = new AlertEvaluator(db, () => new Verdicts(db))
  return (lastSuccessAt) => {
    let result: Evaluation
    try {
      result = evaluator.evaluate(source.target.id, lastSuccessAt)
    } catch (error) {
      progress.log(`alerts could not be evaluated: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    if (!inTerminal) return
    for (const alert of getAlerts(db, result.fired)) progress.log(alertLine('ALERT', alert))
    for (const alert of getAlerts(db, result.resolved)) progress.log(alertLine('RESOLVED', alert))
  }
}

/** "… ALERT warning [rule] summary — where"; an end says RESOLVED only when it recovered, else ENDED, and why. */
function alertLine(what: 'ALERT' | 'RESOLVED', alert: Alert): string {
  const at = what === 'ALERT' ? alert.transitions.at(-1)?.at : alert.resolvedAt
  const where = alert.eventSessionId === null ? alert.connectionName : `${alert.connectionName} / ${alert.eventName ?? alert.eventSessionId} (${alert.eventSessionId})`
  const label = what === 'ALERT' ? `ALERT ${alert.severity}` : endHeading(alert.endKind).word.toUpperCase()
  const why = what === 'RESOLVED' && alert.endReason ? `: ${alert.endReason}` : ''
  return `${at ?? ''} ${label} [${alert.rule}] ${alert.summary} — ${where}${why}`
}

async function syncOnce(
  db: Db,
  source: DataSource,
  progress: Progress,
  viewerStore: ViewerListStore,
  alerts: AlertReporter,
  deadlineMs: number | undefined
): Promise<void> {
  // One signal stops everything at once: waits, requests in flight, the list in hand.
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    const report = await recordedSyncPass({
      db,
      connectionId: source.target.id,
      client: source.client,
      lookbackDays: source.lookbackDays,
      signal: stop.signal,
      deadlineMs,
      viewerStore,
      onProgress: (p) =>
        progress.update({ phase: p.phase, done: p.done, total: p.total, detail: `${p.viewers.toLocaleString('en-US')} viewers` })
    }, 'once')
    progress.done(summary(source, report))
    alerts(report.listed > 0 || report.problems.length === 0 ? Date.now() : null)
    const problem = report.problems[0]
    if (problem) {
      const more = report.problems.length > 1 ? ` (and ${report.problems.length - 1} more problems)` : ''
      throw new CliError(`${ERROR_KIND_LABELS[problem.kind]}: ${problem.message}${more}`, exitCodeOf(problem.kind))
    }
    if (report.stopped) throw new CliError('stopped before the pass was complete; what was fetched is kept.', 1)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

async function syncUntilSignal(
  db: Db,
  source: DataSource,
  progress: Progress,
  viewerStore: ViewerListStore,
  alerts: AlertReporter,
  intervalSeconds: number | undefined,
  deadlineMs: number | undefined
): Promise<void> {
  const poller: Poller = new Poller(db, source.client, {
    connectionId: source.target.id,
    viewerStore,
    passDeadlineMs: deadlineMs,
    cadences: cadencesFor(intervalSeconds),
    lookbackDays: source.lookbackDays,
    onPolled: (report) => {
      progress.log(summary(source, report))
      for (const problem of report.problems.slice(0, 3)) progress.log(`  ${ERROR_KIND_LABELS[problem.kind]}: ${problem.message}`)
      alerts(poller.currentStatus.lastUpdateAt)
    },
    onDetails: () => alerts(poller.currentStatus.lastUpdateAt)
  })
  poller.start()
  await untilSignal()
  await poller.stop() // finishes the unit of work in hand
}

function summary(source: DataSource, r: SyncReport): string {
  const parts = [
    `${r.listed} sessions`,
    `${r.live} live`,
    `${r.snapshots} snapshots`,
    `${r.viewerLists} viewer lists (${r.viewers.toLocaleString('en-US')} viewers)`
  ]
  if (r.skipped) parts.push(`${r.skipped} records skipped`)
  if (r.cutShort.length) parts.push(cutShortPart(r.cutShort))
  if (r.problems.length) parts.push(`${r.problems.length} problems`)
  return `${new Date(r.at).toISOString()} ${source.target.name}: ${parts.join(', ')}`
}

/** Listings named one by one in the summary; the rest are counted. */
const CUT_SHORT_NAMED = 3

/** "cut short by a repeated cursor: the viewer list of "Town hall" (5e55…) after 2 pages, …" */
function cutShortPart(listings: readonly CutShortListing[]): string {
  // Names and ids come from the service: nothing in them may act on the terminal.
  const text = (s: string): string => plainText(shorten(s, 64))
  const named = listings.slice(0, CUT_SHORT_NAMED).map((l) => {
    const what =
      l.eventSessionId === null
        ? 'the session list'
        : `the viewer list of ${l.eventName ? `"${text(l.eventName)}" (${text(l.eventSessionId)})` : `session ${text(l.eventSessionId)}`}`
    return `${what} after ${l.pages} ${l.pages === 1 ? 'page' : 'pages'}`
  })
  const more = listings.length > CUT_SHORT_NAMED ? ` and ${listings.length - CUT_SHORT_NAMED} more lists` : ''
  return `cut short by a repeated cursor (kept as read): ${named.join(', ')}${more}`
}
