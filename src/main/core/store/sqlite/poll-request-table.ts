// The poll requests concern on SQLite: refused, every call. One server (or one desk) per file
// runs every connection's poller itself, so it never asks another server to run one
// (interface/poll-requests.ts; PostgreSQL's is postgres/poll-request-table.ts).
import type { PollRequestStore } from '../interface/poll-requests'

export const SQLITE_ASKS_NOBODY =
  'a SQLite cache has no poll requests: its one server runs every connection\'s poller itself, so there is no other server to ask (docs/scaling-plan.md section 2)'

const refused = (): Promise<never> => Promise.reject(new Error(SQLITE_ASKS_NOBODY))

export function pollRequestTable(): PollRequestStore {
  return { get: refused, ask: refused, claim: refused, answer: refused, withdraw: refused }
}
