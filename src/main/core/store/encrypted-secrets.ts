// The rows of encrypted_secrets (migration 25): sealed bytes in, sealed bytes out. Encryption and
// decryption are the SecretStore's (store/sealed-secrets.ts), never the cache's.
import type { Db } from './db'
import type { SealedSecret } from './interface/secrets'
import { statement } from './statements'

interface Row {
  key_id: string
  iv: Buffer
  ciphertext: Buffer
  auth_tag: Buffer
}

export function getSealedSecret(db: Db, service: string, account: string): SealedSecret | null {
  const row = statement(db, 'SELECT key_id, iv, ciphertext, auth_tag FROM encrypted_secrets WHERE service = ? AND account = ?').get(
    service,
    account
  ) as Row | undefined
  return row ? { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, authTag: row.auth_tag } : null
}

export function countSealedSecrets(db: Db, service: string): number {
  return (statement(db, 'SELECT count(*) AS n FROM encrypted_secrets WHERE service = ?').get(service) as { n: number }).n
}

export function putSealedSecret(db: Db, service: string, account: string, sealed: SealedSecret, now: number): void {
  statement(
    db,
    `INSERT INTO encrypted_secrets (service, account, key_id, iv, ciphertext, auth_tag, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (service, account) DO UPDATE SET key_id = excluded.key_id, iv = excluded.iv, ciphertext = excluded.ciphertext,
       auth_tag = excluded.auth_tag, updated_at = excluded.updated_at`
  ).run(service, account, sealed.keyId, sealed.iv, sealed.ciphertext, sealed.authTag, now)
}

export function removeSealedSecret(db: Db, service: string, account: string): boolean {
  return statement(db, 'DELETE FROM encrypted_secrets WHERE service = ? AND account = ?').run(service, account).changes > 0
}
