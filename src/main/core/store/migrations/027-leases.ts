// Version 27: leases (issue 26; docs/scaling-plan.md section 2) — on PostgreSQL only. Several
// servers share one PostgreSQL database and take turns at its connections and jobs through lease
// rows (postgres/migrations/027-leases.ts). A SQLite cache has one server (or one desk) at a time,
// which polls every connection and runs every job itself: there is nothing to share, so there is
// no lease, and this step changes nothing. It takes its number so that both backends count the
// same versions (a database moved by `store copy` keeps its version).
import type { Migration } from './types'

export const leases: Migration = {
  version: 27,
  name: 'leases',
  up: () => undefined
}
