// EVENTWATCH_CLIENT_SECRET, for headless use (the CLI, cron, a NOC box without a keychain).
// It is read once at start-up and removed from the environment: a child process or worker
// thread would inherit it, and a Node diagnostic report (node --report-on-fatalerror, …)
// prints every environment variable. Note /proc/<pid>/environ keeps the original block; only
// the same user (or root) can read it.

/** Where headless runs may give the secret instead of the keychain. */
export const SECRET_ENV = 'EVENTWATCH_CLIENT_SECRET'

let taken: string | undefined

/** Moves the secret out of `env` into this module. Call first thing at start-up. */
export function takeSecretFromEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  const value = env[SECRET_ENV]
  if (value === undefined) return
  if (value) taken = value
  delete env[SECRET_ENV]
}

/** The secret given in the environment: still in `env` (tests pass their own), or taken at start-up. */
export function environmentSecret(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SECRET_ENV] || (env === process.env ? taken : undefined)
}
