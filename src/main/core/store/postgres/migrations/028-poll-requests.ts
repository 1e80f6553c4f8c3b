// Version 28: poll requests (issue 26; docs/scaling-plan.md section 2, "Requests that reach into
// a poller"). A request that needs a connection's poller (refresh it now, refresh one session,
// fetch a range, judge it again) made on a server that does not hold the connection's lease is a
// row here, which the holder claims, runs with its own poller and answers:
// - `claimed_by` is set once, by the one server that runs it (never reset: a claimer that dies
//   mid-request leaves it claimed and unanswered, and nobody runs it again);
// - an unclaimed request past `expires_at`, or withdrawn by its asker (answered with an error
//   while unclaimed), is never claimed;
// - times are the database's, as the leases' are; a request goes with its connection.
// SQLite's step 28 is empty: one server per file holds every connection, so it asks nobody.
import type { PgMigration } from './types'

export const pollRequests: PgMigration = {
  version: 28,
  name: 'poll-requests',
  sql: `
CREATE TABLE poll_requests (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  connection_id text NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('refresh', 'refreshSession', 'fetchRange', 'reevaluate')),
  arguments     jsonb NOT NULL,
  actor         text,
  asked_by      text NOT NULL,                   -- the asking server: host:pid:boot-uuid
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  claimed_by    text,                            -- the server running it: host:pid:boot-uuid
  claimed_at    timestamptz,
  answered_at   timestamptz,
  answer        jsonb,
  error         text,
  CHECK (answer IS NULL OR error IS NULL)
);
-- What a holder claims: the requests of a connection not claimed and not answered yet.
CREATE INDEX poll_requests_waiting ON poll_requests (connection_id, id) WHERE claimed_by IS NULL AND answered_at IS NULL;
-- What retention forgets: the oldest first.
CREATE INDEX poll_requests_by_creation ON poll_requests (created_at);
`
}
