// Version 27: leases (issue 26; docs/scaling-plan.md section 2). Several servers on one database
// share its connections (each polled by the holder of its lease alone) and its jobs (retention, the
// critical repeats: run by one server of the team) through rows of `leases`:
// - `fence` goes up by one at every acquisition, so a unit of work fenced with an older one is
//   refused (a stalled holder that wakes without its lease writes nothing);
// - times are the database's (`now()`), never a host's: hosts' clocks differ, the database's is one;
// - a connection's lease goes with its connection; a job's (`job:retention`) has none.
// `lease_holders` is each live server's heartbeat: the fair share of connections is the enabled
// ones over the live servers. SQLite's step 27 is empty: one server per file, nothing to share.
import type { PgMigration } from './types'

export const leases: PgMigration = {
  version: 27,
  name: 'leases',
  sql: `
CREATE TABLE leases (
  name          text PRIMARY KEY,                -- 'connection:<id>' or 'job:<name>'
  connection_id text UNIQUE REFERENCES connections (id) ON DELETE CASCADE,
  holder        text NOT NULL,                   -- host:pid:boot-uuid
  fence         bigint NOT NULL,
  acquired_at   timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  CHECK (CASE WHEN connection_id IS NULL THEN name LIKE 'job:_%' ELSE name = 'connection:' || connection_id END)
);
CREATE INDEX leases_by_holder ON leases (holder);

CREATE TABLE lease_holders (
  holder     text PRIMARY KEY,
  seen_until timestamptz NOT NULL
);
`
}
