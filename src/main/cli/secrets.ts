// Where a CLI command keeps the secrets it stores and reads (core/store/sealed-secrets.ts): the OS
// keychain, or — with EVENTWATCH_SECRET_KEY_FILE — encrypted in the database. A bad key file is
// the user's to fix (exit code 2), said before anything starts.
import { chooseSecrets, type SecretsOn } from '../core/store/sealed-secrets'
import { SecretKeyFileError, secretKeyFileOf } from '../core/secrets/key-file'
import { CliError } from './errors'

export function secretsFor(db: string, env: NodeJS.ProcessEnv = process.env): SecretsOn {
  try {
    return chooseSecrets(db, env)
  } catch (error) {
    if (error instanceof SecretKeyFileError) throw new CliError(error.message)
    throw error
  }
}

/** Where a command tells the user their secret went, in words. */
export function secretsPlace(env: NodeJS.ProcessEnv = process.env): string {
  return secretKeyFileOf(env) ? 'the database, encrypted' : 'the OS keychain'
}
