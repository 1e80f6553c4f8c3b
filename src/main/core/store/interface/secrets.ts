// The secrets concern of the Store: sealed secrets, one row per (service, account), as the
// encrypted SecretStore writes them (store/sealed-secrets.ts). The store keeps bytes it
// cannot read: it never sees a key or a clear-text secret, and says nothing of either.
// PostgreSQL only (a database several servers share): on SQLite every call is refused, in words,
// for a SQLite cache keeps its secrets in the OS keychain (sqlite/secret-table.ts).
import type { SealedSecret } from '../../secrets/sealing'

export type { SealedSecret }

export interface SecretReads {
  /** The sealed secret of the row; null when there is none. */
  get(service: string, account: string): Promise<SealedSecret | null>
  /** How many rows `service` has (rows, not secrets: nothing is decrypted). */
  count(service: string): Promise<number>
}

export interface SecretRowStore extends SecretReads {
  /** Writes the row, replacing the one there. */
  put(service: string, account: string, sealed: SealedSecret, now: number): Promise<void>
  /** Deletes the row; false when there was none. */
  remove(service: string, account: string): Promise<boolean>
}
