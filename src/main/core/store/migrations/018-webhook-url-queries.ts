// Version 18: a webhook URL's query may be a secret (Teams Workflows sign theirs with `sig=…`), so
// it is kept in the keychain (account webhook-url:<id>) and the row keeps the URL without it,
// with this mark that a query is to be added back before sending.
import type { Migration } from './types'

export const webhookUrlQueries: Migration = {
  version: 18,
  name: 'webhook-url-queries',
  up: (db) => {
    db.exec('ALTER TABLE webhooks ADD COLUMN url_query_in_keychain INTEGER NOT NULL DEFAULT 0')
  }
}
