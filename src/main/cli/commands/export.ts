// `eventwatch export sessions`: the cached sessions, under the API's own field names.
import { existsSync } from 'node:fs'
import { Option, type Command } from 'commander'
import { defaultDbFile } from '../../core/paths'
import { openDatabase } from '../../core/store/db'
import { exportSessions } from '../../core/store/sessions'
import { CliError } from '../errors'
import { toCsv } from '../csv'

export function registerExport(program: Command): void {
  const exp = program.command('export').description('print cached data')
  exp
    .command('sessions')
    .description('print the cached sessions (JSON array or CSV)')
    .option('--db <file>', 'SQLite cache file', defaultDbFile())
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'csv']).default('json'))
    .action((opts: { db: string; format: 'json' | 'csv' }) => {
      if (!existsSync(opts.db)) throw new CliError(`no cache at ${opts.db} (run "eventwatch sync --once --db ${opts.db}" first).`)
      const db = openDatabase(opts.db)
      try {
        const sessions = exportSessions(db)
        process.stdout.write(opts.format === 'json' ? `${JSON.stringify(sessions, null, 2)}\n` : toCsv(sessions))
      } finally {
        db.close()
      }
    })
}
