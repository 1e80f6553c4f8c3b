// `eventwatch backup FILE`: a consistent copy of the cache while Eventwatch runs (SQLite's online
// backup API), as one file that opens anywhere. Safe beside a running serve, sync or desktop.
import type { Command } from 'commander'
import { dbOption, sqliteFileOnly } from '../db-option'
import { backupCache } from '../../core/store/backup'
import { CliError } from '../errors'
import { jsonOption, printJson } from '../json-output'

interface BackupOptions {
  db: string
  force?: boolean
  json?: boolean
}

export function registerBackup(program: Command): void {
  const command = program
    .command('backup')
    .description('copy the cache to FILE while Eventwatch runs (a consistent snapshot, one file)')
    .argument('<file>', 'where the copy goes (refused if it exists, unless --force)')
    .addOption(dbOption())
    .option('--force', 'replace FILE if it exists')
    .addHelpText('after', '\nExample:\n  eventwatch backup /var/backups/eventwatch-$(date +%F).db\n')
  jsonOption(command, 'the copy made: the cache, the file and its size in bytes').action(async (file: string, opts: BackupOptions) => {
      sqliteFileOnly(opts.db, 'eventwatch backup', 'back a PostgreSQL database up with pg_dump (docs/team-server.md, "Backups")')
      const stop = new AbortController()
      const onSignal = (): void => stop.abort()
      process.once('SIGINT', onSignal)
      process.once('SIGTERM', onSignal)
      try {
        const done = await backupCache(opts.db, file, { overwrite: opts.force ?? false, signal: stop.signal })
        if (opts.json) return printJson({ from: opts.db, file: done.file, bytes: done.bytes })
        const size = (done.bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 1 })
        process.stdout.write(`Backed up ${opts.db} to ${done.file} (${size} MB).\n`)
      } catch (error) {
        if (stop.signal.aborted) throw new CliError('stopped before the backup was complete; no file was written.', 1)
        throw error
      } finally {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
      }
    })
}
