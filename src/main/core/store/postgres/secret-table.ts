// The sealed secrets of a Tx on PostgreSQL (migration 025): sealed bytes in, sealed bytes out.
// Encryption and decryption are the SecretStore's (store/sealed-secrets.ts), never the database's.
import type { SealedSecret, SecretRowStore } from '../interface/secrets'
import { one, type Runners } from './sql'

interface Row {
  key_id: string
  iv: Buffer
  ciphertext: Buffer
  auth_tag: Buffer
}

export function secretTable({ read, write }: Runners): SecretRowStore {
  return {
    async get(service, account) {
      const row = await one<Row>(read, 'SELECT key_id, iv, ciphertext, auth_tag FROM encrypted_secrets WHERE service = $1 AND account = $2', [
        service,
        account
      ])
      return row ? sealedOf(row) : null
    },
    async count(service) {
      const row = await one<{ n: number }>(read, 'SELECT count(*) AS n FROM encrypted_secrets WHERE service = $1', [service])
      return row?.n ?? 0
    },
    async put(service, account, sealed, now) {
      await write(
        `INSERT INTO encrypted_secrets (service, account, key_id, iv, ciphertext, auth_tag, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (service, account) DO UPDATE SET key_id = excluded.key_id, iv = excluded.iv, ciphertext = excluded.ciphertext,
           auth_tag = excluded.auth_tag, updated_at = excluded.updated_at`,
        [service, account, sealed.keyId, sealed.iv, sealed.ciphertext, sealed.authTag, now]
      )
    },
    async remove(service, account) {
      return (await write('DELETE FROM encrypted_secrets WHERE service = $1 AND account = $2', [service, account])).count > 0
    }
  }
}

const sealedOf = (row: Row): SealedSecret => ({ keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, authTag: row.auth_tag })
