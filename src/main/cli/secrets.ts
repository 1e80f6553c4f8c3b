// Where a CLI command keeps the secrets it stores and reads (core/store/sealed-secrets.ts): the OS
// keychain for a SQLite cache; sealed in the database for a postgres:// one with
// EVENTWATCH_SECRET_KEY_FILE. A bad key file is the user's to fix (exit code 2), said before
// anything starts; a key file set for a SQLite cache is said to be unused, once.
import { keyFileUnused, isSharedDatabase, secretRefusal } from '../core/secrets/choice'
import { SecretKeyFileError } from '../core/secrets/key-file'
import { chooseSecrets, type SecretsOn } from '../core/store/sealed-secrets'
import { CliError } from './errors'

let unusedKeyFileSaid = false

export function secretsFor(db: string, env: NodeJS.ProcessEnv = process.env): SecretsOn {
  const unused = keyFileUnused(db, env)
  if (unused && !unusedKeyFileSaid) {
    unusedKeyFileSaid = true
    process.stderr.write(`${unused}.\n`)
  }
  try {
    return chooseSecrets(db, env)
  } catch (error) {
    if (error instanceof SecretKeyFileError) throw new CliError(error.message)
    throw error
  }
}

/** Before asking for a secret that `db` would refuse to store: the refusal, at once. */
export function refuseSecretsEarly(db: string, env: NodeJS.ProcessEnv = process.env): void {
  const refusal = secretRefusal(db, env)
  if (refusal) throw new CliError(`${refusal}; nothing was saved.`)
}

/** Where a command tells the user their secret went, in words. */
export function secretsPlace(db: string): string {
  return isSharedDatabase(db) ? 'the database, encrypted' : 'the OS keychain'
}
