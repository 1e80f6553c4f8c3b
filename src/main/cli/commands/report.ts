// `eventwatch report --session ID`: a session's post-event report from the cache, as one
// self-contained HTML file (charts inline, nothing loaded from elsewhere, prints to PDF) or as
// JSON with the same figures: to --output FILE, or to stdout when that is a pipe or a file. HTML
// is never poured onto a terminal, where it is of no use: there, the command says to give a file.
import { writeFile } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { buildSessionReport } from '../../core/app/session-report'
import { reportHtml } from '../../core/report/report-html'
import { jsonWithEscapedControls, plainText } from '../../../shared/plain-text'
import { dbOption } from '../db-option'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonMeansFormatJson } from '../json-output'
import { locate, withCache } from './export'

interface ReportOptions {
  db: string
  session: string
  connection?: string
  format: 'html' | 'json'
  output?: string
}

export function registerReport(program: Command): void {
  const command = program
    .command('report')
    .description("write a session's post-event report: audience, quality, where it hurt, the alerts (HTML or JSON)")
    .requiredOption('--session <id>', 'the eventSessionId')
    .option('--connection <name>', 'the connection (name or id) whose copy to report on, when several hold the session')
    .option('-o, --output <file>', 'write the report to FILE (replacing it) instead of stdout')
    .addOption(dbOption())
    .addOption(new Option('--format <format>', 'output format').choices(['html', 'json']).default('html'))
  jsonMeansFormatJson(command, 'the report (the same as --format json)')
  withExamples(command, ['eventwatch report --session 4f1c… --output town-hall.html', 'eventwatch report --session 4f1c… --json | jq .audience'])
  command.action((opts: ReportOptions) => {
    // Said before the cache is read: nothing to wait for, and nothing half-done.
    if (opts.format === 'html' && opts.output === undefined && process.stdout.isTTY === true) {
      throw new CliError('report: HTML is not printed on a terminal: pass --output FILE (or pipe it, e.g. > report.html).')
    }
    return withCache({ db: opts.db, format: 'json' }, async (read, cache) => {
      const where = await locate(read, cache, opts.session, opts.connection)
      const report = await buildSessionReport(read, where.connectionId, opts.session, Date.now())
      if (!report) throw new CliError(`no session "${opts.session}" in the cache at ${cache}.`)
      const text = opts.format === 'json' ? `${jsonWithEscapedControls(report, 2)}\n` : reportHtml(report)
      if (opts.output !== undefined) {
        await writeFile(opts.output, text).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`cannot write the report to ${opts.output}: ${error.code ?? error.message}.`)
        })
        process.stderr.write(`Wrote the report on session ${plainText(opts.session)} to ${plainText(opts.output)}.\n`)
        return
      }
      if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve))
    })
  })
}
