// Version 28: poll requests (issue 26; docs/scaling-plan.md section 2) — on PostgreSQL only. A
// server that does not hold a connection's lease asks its holder through a row of
// `poll_requests` (postgres/migrations/028-poll-requests.ts). A SQLite cache has one server (or
// one desk) at a time, which runs every connection's poller itself: it has nobody to ask, so this
// step changes nothing. It takes its number so that both backends count the same versions (a
// database moved by `store copy` keeps its version).
import type { Migration } from './types'

export const pollRequests: Migration = {
  version: 28,
  name: 'poll-requests',
  up: () => undefined
}
