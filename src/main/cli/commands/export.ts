// `eventwatch export sessions|viewers|snapshots|alerts`: cached data on stdout, under the API's
// own field names (alerts: their history), as a JSON array or CSV. Output is written as it is read, in chunks, so a session
// with 100,000 viewers never sits in memory as one string. CSV text cells that a spreadsheet would
// run as formulas are neutralised (src/shared/csv.ts); --bom adds the byte-order mark Excel needs.
// JSON keeps the service's text exact, its control and bidi characters written as \u escapes
// (shared/plain-text.ts), so neither a terminal nor a viewer of the file acts on them.
import { existsSync } from 'node:fs'
import { once } from 'node:events'
import { Option, type Command } from 'commander'
import { alertHistory } from '../../core/store/alerts'
import { defaultDbFile } from '../../core/paths'
import type { Db } from '../../core/store/db'
import { withReadSnapshot } from '../../core/store/read-snapshot'
import {
  exportSessions,
  exportSnapshots,
  iterateViewers,
  sessionConnections,
  SESSION_FIELDS,
  SNAPSHOT_FIELDS,
  VIEWER_FIELDS,
  type ExportRecord,
  type SessionLocation
} from '../../core/store/exports'
import { jsonWithEscapedControls } from '../../../shared/plain-text'
import { CliError } from '../errors'
import { csvColumns, csvLines, UTF8_BOM } from '../csv'

type Format = 'json' | 'csv'

interface ExportOptions {
  db: string
  format: Format
  bom?: boolean
}

interface SessionOptions extends ExportOptions {
  session: string
  connection?: string
}

/** Records of one export; called once per pass (CSV reads twice: columns, then rows). */
type Source = () => Iterable<ExportRecord>

const CHUNK = 64 * 1024

/** Buffers small writes into chunks and waits when stdout says its buffer is full. */
class ChunkedOutput {
  private buffer = ''

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async write(text: string): Promise<void> {
    this.buffer += text
    if (this.buffer.length >= CHUNK) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return
    const ok = this.stream.write(this.buffer)
    this.buffer = ''
    if (!ok) await once(this.stream, 'drain')
  }
}

/** Exactly what jsonWithEscapedControls(array, 2) prints, one element at a time. */
async function writeJson(out: ChunkedOutput, records: Iterable<ExportRecord>): Promise<void> {
  let first = true
  for (const record of records) {
    await out.write(`${first ? '[\n' : ',\n'}  ${jsonWithEscapedControls(record, 2).replace(/\n/g, '\n  ')}`)
    first = false
  }
  await out.write(first ? '[]\n' : '\n]\n')
}

async function writeCsv(out: ChunkedOutput, source: Source, whenEmpty: readonly string[], bom: boolean): Promise<void> {
  if (bom) await out.write(UTF8_BOM)
  for (const line of csvLines(source(), csvColumns(source(), whenEmpty))) await out.write(line)
}

/** Opens the cache (which must exist), runs `body` in one read transaction, closes it. */
export async function withCache(opts: ExportOptions, body: (db: Db) => Promise<void>): Promise<void> {
  // JSON readers reject or mangle a byte-order mark (RFC 8259 forbids sending one).
  if (opts.bom && opts.format === 'json') throw new CliError('--bom applies to CSV only: use it with --format csv (JSON never starts with a byte-order mark).')
  const file = opts.db
  if (!existsSync(file)) throw new CliError(`no cache at ${file} (run "eventwatch sync --once --db ${file}" first).`)
  // `export … | head` closes the pipe early: stop quietly instead of dying on EPIPE.
  const onError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') process.stderr.write(`eventwatch: cannot write the output: ${error.message}\n`)
    process.exit(error.code === 'EPIPE' ? 0 : 1)
  }
  process.stdout.on('error', onError)
  try {
    // One snapshot of the cache for every pass, even while a sync writes to it.
    await withReadSnapshot(file, body)
  } finally {
    process.stdout.off('error', onError)
  }
}

async function print(opts: ExportOptions, source: Source, whenEmpty: readonly string[]): Promise<void> {
  const out = new ChunkedOutput(process.stdout)
  if (opts.format === 'json') await writeJson(out, source())
  else await writeCsv(out, source, whenEmpty, opts.bom === true)
  await out.flush()
}

/**
 * The one cached copy of a session. A session id is the service's, so two connections (two
 * tenants) could both hold it: then --connection (name or id) must say which, rather than
 * mixing two tenants' data in one export.
 */
export function locate(db: Db, file: string, sessionId: string, connection: string | undefined): SessionLocation {
  const all = sessionConnections(db, sessionId)
  if (all.length === 0) throw new CliError(`no session "${sessionId}" in the cache at ${file}.`)
  const wanted = connection?.toLowerCase()
  const matches =
    wanted === undefined
      ? all
      : all.filter((l) => l.connectionId === connection || l.connectionName.toLowerCase() === wanted)
  const names = all.map((l) => `"${l.connectionName}"`).join(', ')
  if (matches.length === 0) throw new CliError(`session "${sessionId}" is not cached for connection "${connection}" (only for ${names}).`)
  if (matches.length > 1) throw new CliError(`session "${sessionId}" is cached for several connections (${names}); choose one with --connection NAME.`)
  return matches[0]!
}

/** CSV of the alert history: one row per transition, the alert's fields repeated on each. */
const ALERT_TRANSITION_FIELDS = [
  'alertId', 'rule', 'connectionId', 'connectionName', 'eventSessionId', 'eventName', 'site', 'siteName', 'summary',
  'at', 'state', 'severity', 'value', 'note', 'endKind'
] as const

function alertTransitionRows(db: Db): ExportRecord[] {
  return alertHistory(db).flatMap((a) =>
    a.transitions.map((t) => ({
      alertId: a.id,
      rule: a.rule,
      connectionId: a.connectionId,
      connectionName: a.connectionName,
      eventSessionId: a.eventSessionId,
      eventName: a.eventName,
      site: a.site,
      siteName: a.siteName,
      summary: a.summary,
      at: t.at,
      state: t.state,
      severity: t.severity,
      value: t.value,
      note: t.note,
      // On the resolving row: recovered, or how else it ended (the note says why in words).
      endKind: t.state === 'resolved' ? a.endKind : null
    }))
  )
}

function withCommonOptions(command: Command): Command {
  return command
    .option('--db <file>', "SQLite cache file (default: the desktop app's; EVENTWATCH_DB overrides)", defaultDbFile())
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'csv']).default('json'))
    .option('--bom', 'start the CSV with a UTF-8 byte-order mark, so Excel reads it as UTF-8')
}

function withSessionOptions(command: Command): Command {
  return withCommonOptions(command)
    .requiredOption('--session <id>', 'the eventSessionId')
    .option('--connection <name>', 'the connection (name or id) whose copy to print, when several hold the session')
}

export function registerExport(program: Command): void {
  const exp = program.command('export').description('print cached data on stdout (JSON array or CSV)')

  withCommonOptions(exp.command('sessions').description('print the cached sessions')).action((opts: ExportOptions) =>
    withCache(opts, async (db) => {
      const sessions = exportSessions(db)
      await print(opts, () => sessions, SESSION_FIELDS)
    })
  )

  withSessionOptions(exp.command('viewers').description("print a session's cached viewers")).action(
    (opts: SessionOptions) =>
      withCache(opts, async (db) => {
        const where = locate(db, opts.db, opts.session, opts.connection)
        // An empty list and a list never fetched are different answers: say which.
        if (!where.hasViewerList) {
          throw new CliError(
            `the viewers of session "${opts.session}" are not cached yet (run "eventwatch sync --once --db ${opts.db}").`
          )
        }
        await print(opts, () => iterateViewers(db, opts.session, where.connectionId), VIEWER_FIELDS)
      })
  )

  withSessionOptions(exp.command('snapshots').description("print a session's cached snapshots (one per poll while live)")).action(
    (opts: SessionOptions) =>
      withCache(opts, async (db) => {
        const where = locate(db, opts.db, opts.session, opts.connection)
        const snapshots = exportSnapshots(db, opts.session, where.connectionId)
        await print(opts, () => snapshots, SNAPSHOT_FIELDS)
      })
  )

  withCommonOptions(
    exp.command('alerts').description('print the alert history: each alert with its transitions (CSV: one row per transition)')
  ).action((opts: ExportOptions) =>
    withCache(opts, async (db) => {
      if (opts.format === 'csv') {
        const rows = alertTransitionRows(db)
        await print(opts, () => rows, ALERT_TRANSITION_FIELDS)
      } else {
        const alerts = alertHistory(db)
        await print(opts, () => alerts, [])
      }
    })
  )
}
