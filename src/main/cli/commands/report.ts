// `eventwatch report --session ID`: a session's post-event report from the cache, on stdout, as
// one self-contained HTML file (charts inline, nothing loaded from elsewhere, prints to PDF) or
// as JSON with the same figures.
import { Option, type Command } from 'commander'
import { buildSessionReport } from '../../core/app/session-report'
import { dbOption } from '../db-option'
import { reportHtml } from '../../core/report/report-html'
import { CliError } from '../errors'
import { locate, withCache } from './export'

interface ReportOptions {
  db: string
  session: string
  connection?: string
  format: 'html' | 'json'
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description("print a session's post-event report: audience, quality, where it hurt, the alerts (HTML or JSON)")
    .requiredOption('--session <id>', 'the eventSessionId')
    .option('--connection <name>', 'the connection (name or id) whose copy to report on, when several hold the session')
    .addOption(dbOption())
    .addOption(new Option('--format <format>', 'output format').choices(['html', 'json']).default('html'))
    .action((opts: ReportOptions) =>
      withCache({ db: opts.db, format: 'json' }, async (read, cache) => {
        const where = await locate(read, cache, opts.session, opts.connection)
        const report = await buildSessionReport(read, where.connectionId, opts.session, Date.now())
        if (!report) throw new CliError(`no session "${opts.session}" in the cache at ${cache}.`)
        const text = opts.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : reportHtml(report)
        if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve))
      })
    )
}
