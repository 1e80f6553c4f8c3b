/** A failure the user can fix from the command line (exit code 2), not a crash. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2
  ) {
    super(message)
    this.name = 'CliError'
  }
}
