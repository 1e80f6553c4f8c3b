// Version 12: a connection's own network (issue 15): a proxy (user name allowed; its password
// lives in the keychain, never here) and an extra CA certificate in PEM, for a service behind
// a company proxy or signed by a private CA that this machine does not trust by itself.
import type { Migration } from './types'

export const connectionNetwork: Migration = {
  version: 12,
  name: 'connection-network',
  up: (db) => {
    db.exec(`
      ALTER TABLE connections ADD COLUMN proxy_url TEXT;
      ALTER TABLE connections ADD COLUMN ca_certificate TEXT;
    `)
  }
}
