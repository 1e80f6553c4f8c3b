// The CLI's way into the app API: a core for the one command (no pollers, no simulator, no HTTP
// face), and every request through its dispatch — validated by the contract, checked against the
// roles and, for a change, written to the audit log. The person running the command is this
// machine's administrator, named by their OS account (core/team/local-actor.ts).
import { ERROR_KINDS, ERROR_KIND_LABELS, type ErrorKind } from '../../shared/error-kinds'
import type { RequestArgs, RequestName, RequestResult } from '../../shared/contract'
import type { AppError } from '../../shared/result'
import { startAppCore } from '../core/app/start'
import type { AppCore } from '../core/app/types'
import { CliError, exitCodeOf } from './errors'
import { secretsFor } from './secrets'

/** Which flag or argument of the command a contract field is, as its user typed it. */
export type FlagNames = Readonly<Record<string, string>>

export async function withAppCore<T>(db: string, work: (core: AppCore) => Promise<T>): Promise<T> {
  // Secrets where the database says: the keychain for SQLite; sealed in a postgres:// one (a key file).
  const core = await startAppCore({ db, polling: false, secretsOn: secretsFor(db) })
  try {
    return await work(core)
  } finally {
    await core.close()
  }
}

/** The request's answer; a refusal or a failure as the CLI's one line and exit code. */
export async function ask<N extends RequestName>(core: AppCore, name: N, args: RequestArgs<N>, flags: FlagNames = {}): Promise<RequestResult<N>> {
  const result = await core.request(name, args)
  if (result.ok) return result.value
  throw cliErrorOf(result.error, flags)
}

/** A contract refusal names the flag ("--to: must be after the start"); it and a refusal of the
 *  role are for the user to fix (exit code 2), as are a bad setting and the cache's storage. */
export function cliErrorOf(error: AppError, flags: FlagNames): CliError {
  if (error.issue) {
    const field = flags[error.issue.field] ?? error.issue.field
    return new CliError(`${ERROR_KIND_LABELS.configuration}: ${field ? `${field}: ` : ''}${error.issue.problem}`)
  }
  const kind = (ERROR_KINDS as readonly string[]).includes(error.code) ? (error.code as ErrorKind) : null
  const exitCode = kind ? exitCodeOf(kind) : error.code === 'forbidden' || error.code === 'invalid-arguments' ? 2 : 1
  return new CliError(error.message, exitCode)
}

/** Names as the cache matches them (SQLite's NOCASE): trimmed, ASCII letters in either case. */
export const sameName = (a: string, b: string): boolean => foldAscii(a.trim()) === foldAscii(b.trim())
const foldAscii = (text: string): string => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
