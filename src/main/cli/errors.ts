// How the CLI ends on a failure: one line in the taxonomy's words and an exit code a script
// can act on (2: fix the command line or the settings; 1: anything else).
import { ERROR_KIND_LABELS, ERROR_KINDS, type ErrorKind } from '../../shared/error-kinds'

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

export function describeFailure(error: unknown): { line: string; exitCode: number } {
  if (error instanceof CliError) return { line: error.message, exitCode: error.exitCode }
  const message = error instanceof Error ? error.message : String(error)
  const kind = (error as { kind?: unknown }).kind
  if (typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind)) {
    const k = kind as ErrorKind
    return { line: `${ERROR_KIND_LABELS[k]}: ${message}`, exitCode: k === 'configuration' ? 2 : 1 }
  }
  return { line: message, exitCode: 1 }
}
