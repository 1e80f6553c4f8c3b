// EVENTWATCH_CLIENT_SECRET, for headless use (the CLI, cron, a NOC box without a keychain), or
// EVENTWATCH_CLIENT_SECRET_FILE, the path of a file holding it (which keeps it out of the
// environment altogether). It is read once at start-up and removed from the environment: a child
// process or worker thread would inherit it, and a Node diagnostic report prints every variable.
// On Linux the environment block the process started with (/proc/<pid>/environ) is overwritten
// too (initial-environment.ts); elsewhere, the file is the way to keep it out of sight.
import { readFileSync } from 'node:fs'
import { rememberSecret } from '../net/redact'
import { scrubInitialEnvironment } from './initial-environment'

/** Where headless runs may give the secret instead of the keychain. */
export const SECRET_ENV = 'EVENTWATCH_CLIENT_SECRET'
/** Or the path of a file holding it (its first line). */
export const SECRET_FILE_ENV = 'EVENTWATCH_CLIENT_SECRET_FILE'

let taken: string | undefined

/** Moves the secret out of `env` into this module. Call first thing at start-up. */
export function takeSecretFromEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  const file = env[SECRET_FILE_ENV]
  if (file) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      const code = (error as { code?: string }).code
      throw new Error(`${SECRET_FILE_ENV}: cannot read ${file} (${code ?? (error as Error).message})`)
    }
    taken = text.split(/\r?\n/)[0] || undefined
  }
  const value = env[SECRET_ENV]
  if (value !== undefined) {
    if (value && !taken) taken = value
    delete env[SECRET_ENV]
    if (value && env === process.env) scrubInitialEnvironment(SECRET_ENV, value)
  }
  rememberSecret(taken)
}

/** The secret given in the environment: still in `env` (tests pass their own), or taken at start-up. */
export function environmentSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SECRET_ENV] || (env === process.env ? taken : undefined)
}
