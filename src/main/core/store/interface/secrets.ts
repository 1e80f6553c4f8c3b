// The secrets concern of the Store: sealed secrets, one row per (service, account), as the
// encrypted SecretStore writes them (core/secrets/encrypted-database.ts). The store keeps bytes it
// cannot read: it never sees a key or a clear-text secret, and says nothing of either.
export interface SealedSecret {
  /** Which key sealed it: an id derived from the key (never the key itself). */
  keyId: string
  /** The 12-byte initialisation vector of this one write. */
  iv: Buffer
  ciphertext: Buffer
  /** The 16-byte GCM authentication tag. */
  authTag: Buffer
}

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
