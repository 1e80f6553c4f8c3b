// Version 25: secrets on a shared database (issue 26; docs/secrets.md). Servers that share a
// PostgreSQL database keep a tenant's client secret, a proxy password and a webhook's signing
// secret here, so that any of them can poll any tenant and sign any delivery; a SQLite cache keeps
// the OS keychain (its step 025 is a no-op). Each row is one AES-256-GCM ciphertext sealed under
// the key of EVENTWATCH_SECRET_KEY_FILE (core/secrets/sealing.ts): its 12-byte IV, its 16-byte tag,
// and the id of the key (an HMAC under the key, never the key). The row's identity (service,
// account) is the additional authenticated data, so a ciphertext moved to another row does not
// decrypt. No clear text is ever written to this table.
import type { PgMigration } from './types'

export const encryptedSecrets: PgMigration = {
  version: 25,
  name: 'encrypted-secrets',
  sql: `
CREATE TABLE encrypted_secrets (
  service    text NOT NULL,
  account    text NOT NULL,
  key_id     text NOT NULL,
  iv         bytea NOT NULL CHECK (octet_length(iv) = 12),
  ciphertext bytea NOT NULL,
  auth_tag   bytea NOT NULL CHECK (octet_length(auth_tag) = 16),
  updated_at bigint NOT NULL,
  PRIMARY KEY (service, account)
);
`
}
