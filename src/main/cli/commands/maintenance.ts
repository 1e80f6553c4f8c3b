// `eventwatch maintenance`: planned silences. Inside a window alerts are still evaluated and
// recorded; notifications and webhooks are held back, and every face says the window is on.
// Through the app API, audited with the OS user.
import { Option, type Command } from 'commander'
import { readTime } from '../../../shared/local-times'
import { broadReasons, broadWhy, MAINTENANCE_REPEATS } from '../../../shared/maintenance'
import { plainText } from '../../../shared/plain-text'
import { canonicalTimeZone, systemTimeZone, zonedIso } from '../../../shared/time-zones'
import { dbOption } from '../db-option'
import { ask, withAppCore, type FlagNames } from '../app-api'
import { CliError } from '../errors'
import { withExamples } from '../examples'
import { jsonOption, printJson } from '../json-output'
import { connectionNamed } from './connections'


const ADD_FLAGS: FlagNames = {
  'window.name': '<name>',
  'window.startsAt': '--from',
  'window.endsAt': '--to',
  'window.repeat': '--every',
  'window.timeZone': '--time-zone',
  'window.connectionId': '--connection',
  'window.contentId': '--content',
  'window.eventSessionId': '--session'
}

interface AddOptions {
  from: string
  to: string
  every: 'none' | 'daily' | 'weekly'
  connection?: string
  content?: string
  session?: string
  timeZone?: string
  yes?: boolean
  db: string
  json?: boolean
}

/** The zone named by --time-zone, or this machine's (UTC when it has none Intl can name). */
function zoneOf(opts: AddOptions): { zone: string; why: string } {
  if (opts.timeZone !== undefined) {
    const zone = canonicalTimeZone(opts.timeZone)
    if (!zone) throw new CliError(`--time-zone: "${opts.timeZone}" is not an IANA time zone name known here (such as Europe/Berlin, America/New_York or UTC).`)
    return { zone, why: '--time-zone' }
  }
  const zone = systemTimeZone()
  return zone ? { zone, why: "this machine's time zone; --time-zone NAME for another" } : { zone: 'UTC', why: 'this machine names no time zone; --time-zone NAME for another' }
}

/** --from/--to as an instant: their own offset, or read in the zone (stderr says which). */
function instantOf(flag: string, text: string, zone: string): { instant: number; zoned: boolean } {
  const read = readTime(text, zone)
  if (!read.ok) throw new CliError(`${flag}: ${read.reason}.`)
  if (read.note) process.stderr.write(`${flag}: ${read.note}.\n`)
  return read
}

export function registerMaintenance(program: Command): void {
  const maintenance = withExamples(program.command('maintenance').description('planned silences: alerts recorded, not announced'), [
    'eventwatch maintenance list'
  ])
  const command = (nameAndArgs: string, description: string, example: string): Command =>
    withExamples(maintenance.command(nameAndArgs).description(description), [example])

  jsonOption(
    command(
      'add <name>',
      'hold back notifications and webhooks from --from to --to (ISO 8601 times)',
      'eventwatch maintenance add "Patch night" --connection Contoso --from 2026-11-28T22:00 --to 2026-11-29T02:00 --time-zone Europe/Berlin'
    ),
    'the added window'
  )
    .requiredOption('--from <time>', 'start, e.g. 2026-11-28T22:00 (in --time-zone) or 2026-11-28T22:00+01:00')
    .requiredOption('--to <time>', 'end')
    .addOption(new Option('--every <period>', 'repeat the window').choices(MAINTENANCE_REPEATS).default('none'))
    .option('--time-zone <name>', "IANA zone for times without an offset and for repeats, e.g. Europe/Berlin (default: this machine's)")
    .option('--yes', 'add a window over everything (no --connection) or longer than 7 days')
    .option('--connection <name>', 'only this saved connection')
    .option('--content <id>', 'only sessions of this content id (with --connection)')
    .option('--session <id>', 'only this session (with --connection)')
    .addOption(dbOption())
    .action((name: string, opts: AddOptions) =>
      withAppCore(opts.db, async (core) => {
        const connection = opts.connection ? await connectionNamed(core, opts.connection) : null
        const { zone, why } = zoneOf(opts)
        const from = instantOf('--from', opts.from, zone)
        const to = instantOf('--to', opts.to, zone)
        if (from.zoned || to.zoned) process.stderr.write(`Read ${from.zoned ? '--from' : ''}${from.zoned && to.zoned ? ' and ' : ''}${to.zoned ? '--to' : ''} in ${zone} (${why}).\n`)
        else if (opts.every !== 'none') process.stderr.write(`Repeats ${opts.every} at the same time of day in ${zone} (${why}).\n`)
        const reasons = broadReasons({ startsAt: from.instant, endsAt: to.instant, connectionId: connection?.id })
        if (reasons.length > 0 && !opts.yes) {
          throw new CliError(`"${name}" not added: ${broadWhy(reasons, to.instant - from.instant)}. Give --yes to add it all the same.`)
        }
        const window = {
          name,
          startsAt: new Date(from.instant).toISOString(),
          endsAt: new Date(to.instant).toISOString(),
          repeat: opts.every,
          timeZone: zone,
          ...(connection ? { connectionId: connection.id } : {}),
          ...(opts.content ? { contentId: opts.content } : {}),
          ...(opts.session ? { eventSessionId: opts.session } : {})
        }
        const w = await ask(core, 'addMaintenance', { window, confirmBroad: opts.yes === true }, ADD_FLAGS)
        if (opts.json) return printJson(w)
        process.stdout.write(`Added maintenance window ${w.id} "${plainText(w.name)}"${w.inForce ? ' (in force now)' : ''}.\n`)
      })
    )

  jsonOption(command('list', 'list maintenance windows (times in their own zone), and whether each is in force now', 'eventwatch maintenance list --json'), 'the windows')
    .addOption(dbOption())
    .action((opts: { json?: boolean; db: string }) =>
      withAppCore(opts.db, async (core) => {
        const list = await ask(core, 'listMaintenance', {})
        if (opts.json) return printJson(list)
        if (list.length === 0) return void process.stdout.write('No maintenance windows.\n')
        for (const w of list) {
          const scope = w.eventSessionId ? `session ${w.eventSessionId}` : w.contentId ? `content ${w.contentId}` : 'all sessions'
          const where = w.connectionName ? `${w.connectionName}, ${scope}` : 'everything'
          process.stdout.write(`${w.id}\t${plainText(w.name)}\t${zonedIso(w.timeZone, Date.parse(w.startsAt))} → ${zonedIso(w.timeZone, Date.parse(w.endsAt))}\t${w.repeat}\t${w.timeZone}\t${plainText(where)}${w.inForce ? '\tIN FORCE' : ''}\n`)
        }
      })
    )

  command('remove <id>', 'remove a maintenance window', 'eventwatch maintenance remove 3')
    .addOption(dbOption())
    .action((id: string, opts: { db: string }) =>
      withAppCore(opts.db, async (core) => {
        // Not a window's number: no window has it (the contract would only say "expected an integer").
        const number = /^\d+$/.test(id.trim()) ? Number(id) : 0
        if (number < 1 || !(await ask(core, 'deleteMaintenance', { id: number })).deleted) throw new CliError(`no maintenance window ${id}.`)
        process.stdout.write(`Removed maintenance window ${id}.\n`)
      })
    )
}
