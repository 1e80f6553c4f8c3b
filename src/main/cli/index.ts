// `eventwatch`: the headless face — simulate, sync, export, report, sites, serve, connections,
// store copy.
import { Command, CommanderError } from 'commander'
import { registerConnections } from './commands/connections'
import { registerWebhooks } from './commands/webhooks'
import { registerMaintenance } from './commands/maintenance'
import { registerUsers } from './commands/users'
import { registerAudit } from './commands/audit'
import { registerBackup } from './commands/backup'
import { registerTeam } from './commands/team'
import { registerExport } from './commands/export'
import { registerReport } from './commands/report'
import { registerSites } from './commands/sites'
import { registerServe } from './commands/serve'
import { registerSimulate } from './commands/simulate'
import { registerStore } from './commands/store'
import { registerSync } from './commands/sync'
import { takeSecretFromEnvironment } from '../core/connections/env-secret'
import { describeFailure } from './errors'
import { version } from '../../../package.json'
import { terminalLines } from './terminal-text'

export async function main(argv: string[]): Promise<void> {
  const program = new Command('eventwatch')
    .description('Monitor live streamed event sessions from the reporting API (or the demo simulator).')
    .version(version, '-V, --version', 'print the version and exit')
    .showHelpAfterError()
    .exitOverride()
    // Commander's errors quote the arguments as typed ("unknown option '…'"): plain lines. Set
    // before the commands are registered, which copy it.
    .configureOutput({ writeErr: (text) => process.stderr.write(terminalLines(text)) })
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
  try {
    takeSecretFromEnvironment() // first, before anything could read or pass on the environment
    // Bare `eventwatch` asks what it can do: the help, on stdout, and success.
    if (argv.length <= 2) {
      program.outputHelp()
      return
    }
    await program.parseAsync(argv)
  } catch (error) {
    // Help and the version end with 0; commander's refusals (a wrong flag, a missing argument) are
    // the user's to fix, as every configuration error: 2, not commander's 1.
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2)
    // One clear line, no stack trace: a script reads stderr and the exit code.
    const { line, exitCode } = describeFailure(error)
    process.stderr.write(`eventwatch: ${line}\n`)
    process.exit(exitCode)
  }
}
