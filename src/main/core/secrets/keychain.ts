// Client secrets live only in the OS keychain (service "eventwatch", account = connection id).
// When no keychain answers, saving fails with a reason and a fix: never a clear-text fallback.
import keytar from 'keytar'

export const KEYCHAIN_SERVICE = 'eventwatch'

export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    // What is missing and what to do first, in one line; the system's own words last.
    super(
      'the OS keychain is not available to keep the secret: run a Secret Service such as gnome-keyring, unlocked, ' +
        `or give the CLI the secret in EVENTWATCH_CLIENT_SECRET (${reason(cause)})`
    )
    this.name = 'KeychainUnavailableError'
  }
}

export interface SecretStore {
  save(account: string, secret: string): Promise<void>
  read(account: string): Promise<string | null>
  remove(account: string): Promise<boolean>
}

export function osKeychain(service = KEYCHAIN_SERVICE): SecretStore {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      throw new KeychainUnavailableError(error)
    }
  }
  return {
    save: (account, secret) => guard(() => keytar.setPassword(service, account, secret)),
    read: (account) => guard(() => keytar.getPassword(service, account)),
    remove: (account) => guard(() => keytar.deletePassword(service, account))
  }
}

// keytar's messages can be long D-Bus dumps; the first line is the useful part.
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]?.slice(0, 160) || 'unknown error'
}
