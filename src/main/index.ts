// Electron entry: composition only. With --cli (the `eventwatch` launcher) the main process is
// the command line instead of the desktop app (desktop/cli-mode.ts).
import { takeSecretFromEnvironment } from './core/connections/env-secret'
import { startDesktop } from './desktop/app'
import { cliArgumentsOf, runCliInElectron } from './desktop/cli-mode'

const cliArguments = cliArgumentsOf(process.argv)
if (cliArguments) {
  // The CLI takes the secret from the environment itself, first thing.
  void runCliInElectron(cliArguments)
} else {
  // Before any renderer, utility process or crash report could inherit the environment.
  try {
    takeSecretFromEnvironment()
  } catch (error) {
    // An unreadable EVENTWATCH_CLIENT_SECRET_FILE: the app still starts; connections say the secret is missing.
    process.stderr.write(`eventwatch: ${error instanceof Error ? error.message : String(error)}\n`)
  }
  startDesktop()
}
