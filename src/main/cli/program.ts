// The `eventwatch` program: every command, as commander knows them. Built apart from running it,
// so the completion scripts and the tests walk the same tree the user runs.
import { Command } from 'commander'
import { version } from '../../../package.json'
import { registerAudit } from './commands/audit'
import { registerBackup } from './commands/backup'
import { registerCompletion } from './commands/completion'
import { registerConnections } from './commands/connections'
import { registerExport } from './commands/export'
import { registerMaintenance } from './commands/maintenance'
import { registerReport } from './commands/report'
import { registerServe } from './commands/serve'
import { registerSimulate } from './commands/simulate'
import { registerSites } from './commands/sites'
import { registerStore } from './commands/store'
import { registerSync } from './commands/sync'
import { registerTeam } from './commands/team'
import { registerUsers } from './commands/users'
import { registerWebhooks } from './commands/webhooks'
import { withExamples } from './examples'
import { terminalLines } from './terminal-text'

export function buildProgram(): Command {
  const program = new Command('eventwatch')
    .description('Monitor live streamed event sessions from the reporting API (or the demo simulator).')
    .version(version, '-V, --version', 'print the version and exit')
    // A wrong flag is one line that names it, and where the usage is: not a screen of help that
    // pushes the cause out of sight. Copied to every command registered after it.
    .showHelpAfterError('(add --help for the usage)')
    .exitOverride()
    // Commander's errors quote the arguments as typed ("unknown option '…'"): plain lines. Set
    // before the commands are registered, which copy it.
    .configureOutput({ writeErr: (text) => process.stderr.write(terminalLines(text)) })
  withExamples(program, [
    'eventwatch sync --once --db ./cache.db     # one pass from the demo simulator into ./cache.db',
    'eventwatch serve --connection Contoso      # the UI in a browser, polling a saved connection',
    'eventwatch audit --json | jq .             # any command that prints data takes --json'
  ])
  registerSimulate(program)
  registerSync(program)
  registerExport(program)
  registerReport(program)
  registerSites(program)
  registerBackup(program)
  registerServe(program)
  registerConnections(program)
  registerWebhooks(program)
  registerMaintenance(program)
  registerUsers(program)
  registerAudit(program)
  registerTeam(program)
  registerStore(program)
  registerCompletion(program)
  return program
}

/** Every command below `program` (depth first), with the words that name it. */
export function* allCommands(program: Command, path: string[] = []): Generator<{ path: string[]; command: Command }> {
  for (const command of program.commands) {
    const here = [...path, command.name()]
    yield { path: here, command }
    yield* allCommands(command, here)
  }
}
