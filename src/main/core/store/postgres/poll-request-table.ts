// The poll requests of a Tx on PostgreSQL (migration 028; interface/poll-requests.ts). A claim
// takes every waiting request of a connection at once, locking each as it is picked and skipping
// those another server's claim has locked (FOR UPDATE SKIP LOCKED), and checks again, row by row,
// that it is still unclaimed and unanswered: a request is claimed once, ever. Expiry is the
// database's now().
import type { PollOutcome, PollRequest, PollRequestStore } from '../interface/poll-requests'
import { all, one, type Runners } from './sql'

const ms = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::bigint`

const COLUMNS = `id, connection_id AS "connectionId", kind, arguments, actor, asked_by AS "askedBy",
  ${ms('created_at')} AS "createdAt", ${ms('expires_at')} AS "expiresAt", claimed_by AS "claimedBy",
  ${ms('answered_at')} AS "answeredAt", answer, error`

/** Still to run: nobody claimed it, nobody answered it (a withdrawal answers it), not run out. */
const WAITING = 'claimed_by IS NULL AND answered_at IS NULL AND expires_at > now()'

export function pollRequestTable({ read, write }: Runners): PollRequestStore {
  return {
    get: (id) => one<PollRequest>(read, `SELECT ${COLUMNS} FROM poll_requests WHERE id = $1`, [id]),

    async ask(request) {
      const row = await one<{ id: number }>(
        write,
        `INSERT INTO poll_requests (connection_id, kind, arguments, actor, asked_by, created_at, expires_at)
          VALUES ($1, $2, $3::jsonb, $4, $5, now(), now() + $6::double precision * interval '1 millisecond')
          RETURNING id`,
        [request.connectionId, request.kind, JSON.stringify(request.arguments ?? null), request.actor, request.askedBy, request.deadlineMs]
      )
      return row!.id
    },

    claim: (connectionId, holder) =>
      all<PollRequest>(
        write,
        `WITH picked AS (
            SELECT id FROM poll_requests WHERE connection_id = $1 AND ${WAITING} ORDER BY id FOR UPDATE SKIP LOCKED)
          UPDATE poll_requests r SET claimed_by = $2, claimed_at = now()
          FROM picked WHERE r.id = picked.id AND r.claimed_by IS NULL AND r.answered_at IS NULL
          RETURNING ${COLUMNS.replace(/^id,/, 'r.id,')}`,
        [connectionId, holder]
      ).then((claimed) => claimed.sort((a, b) => a.id - b.id)),

    async answer(id, holder, outcome: PollOutcome) {
      const [answer, error] = 'error' in outcome ? [null, outcome.error] : [JSON.stringify(outcome.answer ?? null), null]
      const { count } = await write(
        `UPDATE poll_requests SET answered_at = now(), answer = $3::jsonb, error = $4
          WHERE id = $1 AND claimed_by = $2 AND answered_at IS NULL`,
        [id, holder, answer, error]
      )
      return count > 0
    },

    async withdraw(id, why) {
      const { count } = await write(
        'UPDATE poll_requests SET answered_at = now(), error = $2 WHERE id = $1 AND claimed_by IS NULL AND answered_at IS NULL',
        [id, why]
      )
      return count > 0
    }
  }
}
