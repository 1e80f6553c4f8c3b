// `eventwatch maintenance`: planned silences. Inside a window alerts are still evaluated and
// recorded; notifications and webhooks are held back, and every face says the window is on.
import { Option, type Command } from 'commander'
import { MAINTENANCE_REPEATS } from '../../../shared/maintenance'
import { jsonWithEscapedControls, plainText } from '../../../shared/plain-text'
import { addMaintenanceWindow, maintenanceWindows, removeMaintenanceWindow } from '../../core/alerts/maintenance-windows'
import { defaultDbFile } from '../../core/paths'
import { findConnectionByName } from '../../core/store/connections'
import { openDatabase, type Db } from '../../core/store/db'
import { CliError } from '../errors'

const DB_HELP = "SQLite cache file (default: the desktop app's; EVENTWATCH_DB overrides)"

function withDb<T>(file: string, work: (db: Db) => T): T {
  const db = openDatabase(file)
  try {
    return work(db)
  } finally {
    db.close()
  }
}

interface AddOptions {
  from: string
  to: string
  every: 'none' | 'daily' | 'weekly'
  connection?: string
  content?: string
  session?: string
  db: string
}

export function registerMaintenance(program: Command): void {
  const maintenance = program.command('maintenance').description('planned silences: alerts recorded, not announced')

  maintenance
    .command('add <name>')
    .description('hold back notifications and webhooks from --from to --to (ISO 8601 times)')
    .requiredOption('--from <time>', 'start, e.g. 2026-11-28T22:00:00Z')
    .requiredOption('--to <time>', 'end')
    .addOption(new Option('--every <period>', 'repeat the window').choices(MAINTENANCE_REPEATS).default('none'))
    .option('--connection <name>', 'only this saved connection')
    .option('--content <id>', 'only sessions of this content id (with --connection)')
    .option('--session <id>', 'only this session (with --connection)')
    .option('--db <file>', DB_HELP, defaultDbFile())
    .action((name: string, opts: AddOptions) =>
      withDb(opts.db, (db) => {
        const connection = opts.connection ? findConnectionByName(db, opts.connection) : null
        if (opts.connection && !connection) throw new CliError(`no saved connection named "${opts.connection}".`)
        const w = addMaintenanceWindow(
          db,
          {
            name,
            startsAt: opts.from,
            endsAt: opts.to,
            repeat: opts.every,
            ...(connection ? { connectionId: connection.id } : {}),
            ...(opts.content ? { contentId: opts.content } : {}),
            ...(opts.session ? { eventSessionId: opts.session } : {})
          },
          Date.now()
        )
        process.stdout.write(`Added maintenance window ${w.id} "${plainText(w.name)}"${w.inForce ? ' (in force now)' : ''}.\n`)
      })
    )

  maintenance
    .command('list')
    .description('list maintenance windows, and whether each is in force now')
    .option('--json', 'print JSON')
    .option('--db <file>', DB_HELP, defaultDbFile())
    .action((opts: { json?: boolean; db: string }) =>
      withDb(opts.db, (db) => {
        const list = maintenanceWindows(db, Date.now())
        if (opts.json) return void process.stdout.write(`${jsonWithEscapedControls(list, 2)}\n`)
        if (list.length === 0) return void process.stdout.write('No maintenance windows.\n')
        for (const w of list) {
          const scope = w.eventSessionId ? `session ${w.eventSessionId}` : w.contentId ? `content ${w.contentId}` : 'all sessions'
          const where = w.connectionName ? `${w.connectionName}, ${scope}` : 'everything'
          process.stdout.write(`${w.id}\t${plainText(w.name)}\t${w.startsAt} → ${w.endsAt}\t${w.repeat}\t${plainText(where)}${w.inForce ? '\tIN FORCE' : ''}\n`)
        }
      })
    )

  maintenance
    .command('remove <id>')
    .description('remove a maintenance window')
    .option('--db <file>', DB_HELP, defaultDbFile())
    .action((id: string, opts: { db: string }) =>
      withDb(opts.db, (db) => {
        if (!removeMaintenanceWindow(db, Number(id))) throw new CliError(`no maintenance window ${id}.`)
        process.stdout.write(`Removed maintenance window ${id}.\n`)
      })
    )
}
