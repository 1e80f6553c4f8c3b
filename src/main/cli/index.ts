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
import { terminalLines } from './terminal-text'

export async function main(argv: string[]): Promise<void> {
  const program = new Command('eventwatch')
    .description('Monitor live streamed event sessions from the reporting API (or the demo simulator).')
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
    await program.parseAsync(argv)
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode)
    // One clear line, no stack trace: a script reads stderr and the exit code.
    const { line, exitCode } = describeFailure(error)
    process.stderr.write(`eventwatch: ${line}\n`)
    process.exit(exitCode)
  }
}
