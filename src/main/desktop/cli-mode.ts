// The installed app is also the `eventwatch` command (issue 15): its fuses forbid
// ELECTRON_RUN_AS_NODE, so the launcher on the PATH (resources/bin/eventwatch, or the one an
// AppImage writes to ~/.local/bin) starts the app's own executable with --cli, and the main
// process then runs the CLI instead of a window: same code, same cache, same keychain.
import { app } from 'electron'

export const CLI_FLAG = '--cli'

/** The CLI's own arguments when started as the CLI, else null. */
export function cliArgumentsOf(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(CLI_FLAG)
  return at < 0 ? null : argv.slice(at + 1)
}

/** Runs the CLI to its end (a `serve` or `sync` runs until a signal), then leaves with its status. */
export async function runCliInElectron(args: readonly string[]): Promise<void> {
  app.dock?.hide()
  const { main } = await import('../cli/index')
  // commander skips the first two entries (the runtime and the script) as under Node.
  await main(['eventwatch', 'eventwatch', ...args])
  app.exit(typeof process.exitCode === 'number' ? process.exitCode : 0)
}
