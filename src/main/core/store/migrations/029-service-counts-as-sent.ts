// Version 29: the service's viewer counts kept as sent, on PostgreSQL (postgres/migrations/029-…).
// SQLite's INTEGER columns already keep whatever number the service sent (1e20) as a REAL,
// so this step changes nothing here. It takes its number so that both backends count the same
// versions (a database moved by `store copy` keeps its version).
import type { Migration } from './types'

export const serviceCountsAsSent: Migration = {
  version: 29,
  name: 'service-counts-as-sent',
  up: () => undefined
}
