// Version 29: a session's viewer count as the service sent it. The count is the service's number,
// and its data is hostile: 1e20 is still a number SQLite keeps (as a REAL in its INTEGER column),
// while PostgreSQL's bigint refused it — and with it the unit that stores the tenant's whole
// session list ('value "100000000000000000000" is out of range for type bigint'). So the counts
// the service sends are double precision, as its other figures are; the counts Eventwatch makes
// itself (a viewer list's length, its peak) stay bigint.
import type { PgMigration } from './types'

export const serviceCountsAsSent: PgMigration = {
  version: 29,
  name: 'service-counts-as-sent',
  sql: `
ALTER TABLE sessions ALTER COLUMN viewers_count TYPE double precision, ALTER COLUMN peak_viewers TYPE double precision;
ALTER TABLE snapshots ALTER COLUMN viewers_count TYPE double precision;
`
}
