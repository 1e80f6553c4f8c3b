// `eventwatch`: the headless face. Runs the program (its commands: program.ts) and ends as a
// script expects: one line and an exit code on a failure.
import { CommanderError } from 'commander'
import { takeSecretFromEnvironment } from '../core/connections/env-secret'
import { describeFailure } from './errors'
import { buildProgram } from './program'

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram()
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
