// Version 25: secrets kept in the database, encrypted (issue 26: secrets on a shared database).
// A team server whose key file is set (EVENTWATCH_SECRET_KEY_FILE, docs/secrets.md) keeps a
// tenant's client secret, a proxy password and a webhook's signing secret here instead of the OS
// keychain of one host, so that every server on the database can read them. Each row is one
// AES-256-GCM ciphertext (core/secrets/sealing.ts, kept by store/sealed-secrets.ts): its 12-byte IV, its 16-byte tag, and
// the id of the key it was written under (an HMAC of the key, never the key); the row's identity
// (service, account) is its additional authenticated data, so a ciphertext moved to another row
// does not decrypt. No clear text is ever written to this table.
import type { Migration } from './types'

export const encryptedSecrets: Migration = {
  version: 25,
  name: 'encrypted-secrets',
  up: (db) => {
    db.exec(`
      CREATE TABLE encrypted_secrets (
        service    TEXT NOT NULL,
        account    TEXT NOT NULL,
        key_id     TEXT NOT NULL,
        iv         BLOB NOT NULL CHECK (length(iv) = 12),
        ciphertext BLOB NOT NULL,
        auth_tag   BLOB NOT NULL CHECK (length(auth_tag) = 16),
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (service, account)
      );
    `)
  }
}
