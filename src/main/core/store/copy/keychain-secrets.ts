// The secrets of the copied connections and webhooks. A SQLite cache never holds them: they are in
// this machine's OS keychain. A PostgreSQL database keeps them sealed under the key file every
// server reads (docs/secrets.md), so with a key file the copy reads each from the keychain before
// its transaction and seals it into that table within it; without one they stay where they are,
// and the copy says which.
import { clientSecretAccount, proxyPasswordAccount, webhookSecretAccount, webhookUrlAccount } from '../../secrets/accounts'
import { KEYCHAIN_SERVICE, type SecretStore } from '../../secrets/keychain'
import { sealSecret } from '../../secrets/sealing'
import { CopyRefusedError } from './copy-errors'
import type { SourceCache } from './source-cache'
import type { TargetColumn } from './target-database'

/** PostgreSQL's table of sealed secrets (migration 025). */
export const SEALED_TABLE = 'encrypted_secrets'

export interface SecretsToSeal {
  /** This machine's keychain, where the cache's secrets are. */
  keychain: SecretStore
  /** The 32 bytes of EVENTWATCH_SECRET_KEY_FILE. */
  key: Buffer
}

/** A secret the cache's rows say the keychain holds, in words. */
interface KeptSecret {
  account: string
  what: string
  /** False where the keychain may hold none (a proxy without a password). */
  expected: boolean
}

function proxyUser(proxy: string | null): boolean {
  try {
    return proxy !== null && new URL(proxy).username !== ''
  } catch {
    return false
  }
}

/** Every secret the copied connections and webhooks keep in the keychain. */
export function keptSecrets(source: SourceCache): KeptSecret[] {
  const kept: KeptSecret[] = []
  for (const c of source.few<{ id: string; name: string; demo: number; proxy: string | null }>(
    'SELECT id, name, is_demo AS demo, proxy_url AS proxy FROM connections ORDER BY name'
  )) {
    // The demo's secret is built in, never kept.
    if (!c.demo) kept.push({ account: clientSecretAccount(c.id), what: `the client secret of connection "${c.name}"`, expected: true })
    // A proxy password is kept only for a proxy URL with a user, and a user may have none.
    if (proxyUser(c.proxy)) kept.push({ account: proxyPasswordAccount(c.id), what: `the proxy password of connection "${c.name}" (if it has one)`, expected: false })
  }
  for (const w of source.few<{ id: string; name: string; signed: number; query: number }>(
    'SELECT id, name, signed, url_query_in_keychain AS query FROM webhooks ORDER BY name'
  )) {
    if (w.signed) kept.push({ account: webhookSecretAccount(w.id), what: `the signing secret of webhook "${w.name}"`, expected: true })
    if (w.query) kept.push({ account: webhookUrlAccount(w.id), what: `the URL query of webhook "${w.name}"`, expected: true })
  }
  return kept
}

/** The columns of SEALED_TABLE a sealed row fills: every one it has. */
const SEALED_COLUMNS = ['service', 'account', 'key_id', 'iv', 'ciphertext', 'auth_tag', 'updated_at']

/** A sealed table this build does not fill whole is refused before anything is written. */
export function checkSealedColumns(columns: readonly TargetColumn[]): void {
  const names = columns.map((column) => column.name)
  const unknown = names.find((name) => !SEALED_COLUMNS.includes(name)) ?? SEALED_COLUMNS.find((name) => !names.includes(name))
  if (unknown) throw new CopyRefusedError(`this build cannot seal secrets into ${SEALED_TABLE}: its column ${unknown} is not one the copy knows; nothing was copied`)
}

export interface SealedRows {
  /** Rows of SEALED_TABLE, in `columns` order. */
  rows: unknown[][]
  /** What the keychain did not hold, in words. */
  missing: string[]
}

/** Reads each kept secret from the keychain and seals it as the database keeps it. */
export async function sealFromKeychain(kept: readonly KeptSecret[], secrets: SecretsToSeal, columns: readonly TargetColumn[], now: number): Promise<SealedRows> {
  const rows: unknown[][] = []
  const missing: string[] = []
  for (const { account, what, expected } of kept) {
    let secret: string | null
    try {
      secret = await secrets.keychain.read(account)
    } catch (error) {
      throw new CopyRefusedError(
        `${what} cannot be read from this machine's keychain (${(error as Error).message}): run store copy where the keychain is unlocked, or without EVENTWATCH_SECRET_KEY_FILE to copy the data alone; nothing was copied`
      )
    }
    if (secret === null) {
      if (expected) missing.push(what)
      continue
    }
    const service = KEYCHAIN_SERVICE
    const sealed = sealSecret(secrets.key, { service, account }, secret)
    const row: Record<string, unknown> = {
      service,
      account,
      key_id: sealed.keyId,
      iv: sealed.iv,
      ciphertext: sealed.ciphertext,
      auth_tag: sealed.authTag,
      updated_at: now
    }
    rows.push(columns.map((column) => row[column.name]))
  }
  return { rows, missing }
}
