// How the CLI ends on a failure: one line in the taxonomy's words and an exit code a script
// can act on (2: fix something on this machine — the command line, the settings, the cache
// file or its disk; 1: anything else, such as the service failing).
import { plainText } from '../../shared/plain-text'
import { redact } from '../core/net/redact'
import { ERROR_KIND_LABELS, ERROR_KINDS, type ErrorKind } from '../../shared/error-kinds'
import { storageFault } from '../core/storage-faults'

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

/** 2 for what the user fixes here (configuration, the cache's storage), 1 for the rest. */
export const exitCodeOf = (kind: ErrorKind): number => (kind === 'configuration' || kind === 'storage' ? 2 : 1)

export function describeFailure(error: unknown): { line: string; exitCode: number } {
  const described = describe(error)
  // Whatever the words quote (a name, the service's answer): no secret, and nothing that could
  // act on the terminal (shared/plain-text.ts).
  return { ...described, line: plainText(redact(described.line)) }
}

function describe(error: unknown): { line: string; exitCode: number } {
  if (error instanceof CliError) return { line: error.message, exitCode: error.exitCode }
  // SQLite's own words ("database or disk is full") become the cache's: which file, what to do.
  const described = storageFault(error) ?? error
  const message = described instanceof Error ? described.message : String(described)
  const kind = (described as { kind?: unknown } | null)?.kind
  if (typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind)) {
    const k = kind as ErrorKind
    return { line: `${ERROR_KIND_LABELS[k]}: ${message}`, exitCode: exitCodeOf(k) }
  }
  return { line: message, exitCode: 1 }
}
