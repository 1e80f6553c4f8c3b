// Client secrets live only in the OS keychain (service "eventwatch", account = connection id).
// When no keychain answers, saving fails with a reason and a fix: never a clear-text fallback.
//
// keytar is an optional dependency (issue 15): it compiles from source where its prebuilt binary
// cannot be downloaded, and needs libsecret's headers on Linux for that. Without it `npm install`
// still succeeds and the demo runs; it is loaded on first use, and its absence is said in one line.
type Keytar = typeof import('keytar')

/** Loads keytar; the default, or a test's stand-in. */
export type KeytarLoader = () => Promise<Keytar>

const loadKeytar: KeytarLoader = async () => {
  const loaded = (await import('keytar')) as Keytar & { default?: Keytar }
  return loaded.default ?? loaded
}

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

/** No keychain because its module is missing: handled as any unavailable keychain, said as what to install. */
export class KeytarMissingError extends KeychainUnavailableError {
  constructor(cause: unknown) {
    super(cause)
    this.message =
      'the keychain module (keytar) is not installed: on Linux install libsecret-1-dev, then run npm install again (npm removes an optional module whose build was skipped, and npm rebuild cannot bring it back); ' +
      `the demo works without it, and the CLI takes the secret in EVENTWATCH_CLIENT_SECRET (${reason(cause)})`
    this.name = 'KeytarMissingError'
  }
}

/**
 * No key to seal a secret with where one is needed (a shared database without
 * EVENTWATCH_SECRET_KEY_FILE, core/secrets/choice.ts): as unavailable as a missing keychain to the
 * services, so it comes out in its own words as a configuration error.
 */
export class SecretKeyMissingError extends KeychainUnavailableError {
  constructor(message: string) {
    super(message)
    this.message = message
    this.name = 'SecretKeyMissingError'
  }
}

export function osKeychain(service = KEYCHAIN_SERVICE, load: KeytarLoader = loadKeytar): SecretStore {
  let keytar: Promise<Keytar> | undefined
  const module = (): Promise<Keytar> => {
    keytar ??= load().catch((error: unknown) => {
      keytar = undefined // installed meanwhile (npm install again): the next use tries again
      throw new KeytarMissingError(error)
    })
    return keytar
  }
  const guard = async <T>(work: (k: Keytar) => Promise<T>): Promise<T> => {
    const k = await module()
    try {
      return await work(k)
    } catch (error) {
      throw new KeychainUnavailableError(error)
    }
  }
  return {
    save: (account, secret) => guard((k) => k.setPassword(service, account, secret)),
    read: (account) => guard((k) => k.getPassword(service, account)),
    remove: (account) => guard((k) => k.deletePassword(service, account))
  }
}

// keytar's messages can be long D-Bus dumps; the first line is the useful part.
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0]?.slice(0, 160) || 'unknown error'
}
