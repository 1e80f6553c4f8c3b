// `eventwatch export sessions|viewers|snapshots|alerts`: cached data on stdout, under the API's
// own field names (alerts: their history), as a JSON array or CSV. Output is written as it is read, in chunks, so a session
// with 100,000 viewers never sits in memory as one string. CSV text cells that a spreadsheet would
// run as formulas are neutralised (src/shared/csv.ts); --bom adds the byte-order mark Excel needs.
// JSON keeps the service's text exact, its control and bidi characters written as \u escapes
// (shared/plain-text.ts), so neither a terminal nor a viewer of the file acts on them.
import { existsSync } from 'node:fs'
import { Option, type Command } from 'commander'
import type { Alert } from '../../../shared/alerts'
import { isPostgresUrl } from '../../core/store/cache-location'
import { SESSION_FIELDS, SNAPSHOT_FIELDS, VIEWER_FIELDS, type ExportRecord } from '../../core/store/exports'
import type { ReadTx } from '../../core/store/interface/store'
import { MAX_PAGE } from '../../core/store/interface/viewers'
import { withReadSnapshot } from '../../core/store/read-snapshot'
import { ChunkedOutput, jsonMeansFormatJson, writeJsonArray } from '../json-output'
import { withExamples } from '../examples'
import { CliError } from '../errors'
import { dbOption } from '../db-option'
import { csvLines, CsvColumns, UTF8_BOM } from '../csv'
import { writingToStdout } from '../stdout-pipe'

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

/** Records of one export, a page at a time; called once per pass (CSV reads twice: columns, then rows). */
type Source = () => AsyncIterable<readonly ExportRecord[]>

/** Every page `read(offset, limit)` answers, until one comes back short: memory bounded by a page. */
const paged = (read: (offset: number, limit: number) => Promise<readonly ExportRecord[]>): Source => pagedBy(read, (page) => [...page])

async function writeCsv(out: ChunkedOutput, source: Source, whenEmpty: readonly string[], bom: boolean): Promise<void> {
  if (bom) await out.write(UTF8_BOM)
  // The columns are every record's: one pass to learn them, a second to write the rows.
  const columns = new CsvColumns()
  let any = false
  for await (const page of source()) {
    for (const record of page) columns.add(record)
    any ||= page.length > 0
  }
  const names = any ? columns.list() : [...whenEmpty]
  // The header once, then each page's rows (csvLines begins every call with the header).
  for (const line of csvLines([], names)) await out.write(line)
  for await (const page of source()) {
    const lines = csvLines(page, names)
    lines.next()
    for (const line of lines) await out.write(line)
  }
}

/**
 * Opens the cache (a file must exist), runs `body` in one long read-only unit of the Store (one
 * state for every pass, even while a sync writes), closes it. `body` gets the cache's name in words.
 */
export async function withCache(opts: ExportOptions, body: (read: ReadTx, cache: string) => Promise<void>): Promise<void> {
  // JSON readers reject or mangle a byte-order mark (RFC 8259 forbids sending one).
  if (opts.bom && opts.format === 'json') throw new CliError('--bom applies to CSV only: use it with --format csv (JSON never starts with a byte-order mark).')
  const file = opts.db
  if (!isPostgresUrl(file) && !existsSync(file)) throw new CliError(`no cache at ${file} (run "eventwatch sync --once --db ${file}" first).`)
  // One state of the cache for every pass, even while a sync writes to it.
  await writingToStdout(() => withReadSnapshot(file, body))
}

async function print(opts: ExportOptions, source: Source, whenEmpty: readonly string[]): Promise<void> {
  const out = new ChunkedOutput()
  if (opts.format === 'json') await writeJsonArray(out, source())
  else await writeCsv(out, source, whenEmpty, opts.bom === true)
  await out.flush()
}

/** Where a session id is cached: the connection that holds it. */
export interface SessionLocation {
  connectionId: string
  connectionName: string
}

/**
 * The one cached copy of a session. A session id is the service's, so two connections (two
 * tenants) could both hold it: then --connection (name or id) must say which, rather than
 * mixing two tenants' data in one export.
 */
export async function locate(read: ReadTx, cache: string, sessionId: string, connection: string | undefined): Promise<SessionLocation> {
  const connections = (await read.connections.list({ includeDemo: true })).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
  const held = await Promise.all(connections.map(async (c) => ((await read.sessions.row(c.id, sessionId)) ? [{ connectionId: c.id, connectionName: c.name }] : [])))
  const all = held.flat()
  if (all.length === 0) throw new CliError(`no session "${sessionId}" in the cache at ${cache}.`)
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

function alertTransitionRows(alerts: readonly Alert[]): ExportRecord[] {
  return alerts.flatMap((a) =>
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
    .addOption(dbOption())
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'csv']).default('json'))
    .option('--bom', 'start the CSV with a UTF-8 byte-order mark, so Excel reads it as UTF-8')
}

/** --json is --format json: one JSON array, written as it is read. */
const withJson = (command: Command): Command => jsonMeansFormatJson(command, 'the records (the same as --format json)')


function withSessionOptions(command: Command): Command {
  return withCommonOptions(command)
    .requiredOption('--session <id>', 'the eventSessionId')
    .option('--connection <name>', 'the connection (name or id) whose copy to print, when several hold the session')
}

export function registerExport(program: Command): void {
  const exp = withExamples(program.command('export').description('print cached data on stdout (JSON array or CSV)'), [
    'eventwatch export sessions --format csv --bom > sessions.csv',
    'eventwatch export viewers --session 4f1c… --json | jq length'
  ])

  const command = (name: string, description: string, example: string): Command =>
    withJson(withExamples(exp.command(name).description(description), [example]))

  withCommonOptions(command('sessions', 'print the cached sessions', 'eventwatch export sessions --json > sessions.json')).action((opts: ExportOptions) =>
    withCache(opts, (read) => print(opts, paged((offset, limit) => read.sessions.exportedPage({ offset, limit })), SESSION_FIELDS))
  )

  withSessionOptions(command('viewers', "print a session's cached viewers", 'eventwatch export viewers --session 4f1c… --format csv > viewers.csv')).action(
    (opts: SessionOptions) =>
      withCache(opts, async (read, cache) => {
        const where = await locate(read, cache, opts.session, opts.connection)
        // An empty list and a list never fetched are different answers: say which.
        if ((await read.viewers.listFetchedAt(where.connectionId, opts.session)) === null) {
          throw new CliError(`the viewers of session "${opts.session}" are not cached yet (run "eventwatch sync --once --db ${cache}").`)
        }
        const window = { connectionId: where.connectionId, eventSessionId: opts.session }
        await print(opts, paged(async (offset, limit) => (await read.viewers.window({ ...window, offset, limit })).records), VIEWER_FIELDS)
      })
  )

  withSessionOptions(
    command('snapshots', "print a session's cached snapshots (one per poll while live)", 'eventwatch export snapshots --session 4f1c… --json')
  ).action(
    (opts: SessionOptions) =>
      withCache(opts, async (read, cache) => {
        const where = await locate(read, cache, opts.session, opts.connection)
        const window = { connectionId: where.connectionId, eventSessionId: opts.session }
        await print(opts, paged(async (offset, limit) => (await read.snapshots.exportWindow({ ...window, offset, limit })).records), SNAPSHOT_FIELDS)
      })
  )

  withCommonOptions(
    command(
      'alerts',
      'print the alert history: each alert with its transitions (CSV: one row per transition)',
      'eventwatch export alerts --format csv > alerts.csv'
    )
  ).action((opts: ExportOptions) =>
    withCache(opts, async (read) => {
      const alerts = (offset: number, limit: number) => read.alerts.historyPage({ offset, limit })
      // The pages are counted in alerts; a CSV page's rows are their transitions.
      if (opts.format === 'csv') await print(opts, pagedBy(alerts, alertTransitionRows), ALERT_TRANSITION_FIELDS)
      else await print(opts, pagedBy(alerts, (page) => page as unknown as ExportRecord[]), [])
    })
  )
}

/** `paged` over pages of `T`, each written as the records `toRecords` makes of it. */
function pagedBy<T>(read: (offset: number, limit: number) => Promise<readonly T[]>, toRecords: (page: readonly T[]) => ExportRecord[]): Source {
  return async function* () {
    for (let offset = 0; ; offset += MAX_PAGE) {
      const page = await read(offset, MAX_PAGE)
      if (page.length > 0) yield toRecords(page)
      if (page.length < MAX_PAGE) return
    }
  }
}
