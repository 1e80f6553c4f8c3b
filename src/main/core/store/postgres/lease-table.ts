// The leases of a PostgreSQL store (interface/leases.ts; docs/scaling-plan.md section 2). Each call
// runs on the pool, outside the store's queue of units: a renewal must not wait behind the units
// of work of its own server. Every expiry is the database's now(); the only lock a renewal may
// wait for is a fenced unit's FOR SHARE on its row, for the milliseconds until that unit commits.
import { leasedConnection, LeaseLostError, type Fence, type Lease, type LeaseStore, type ShareClaim } from '../interface/leases'
import { all, one, type Sql } from './sql'

/** `lengthMs` from now, on the database's clock. */
const FROM_NOW = (param: string): string => `now() + ${param}::double precision * interval '1 millisecond'`

const LEASE_COLUMNS = (table: string): string =>
  `${table}.name, ${table}.holder, ${table}.fence, (extract(epoch FROM ${table}.expires_at) * 1000)::bigint AS "expiresAt"`

/** The statements of a claim, run in one transaction on one client. */
export type InTransaction = <T>(work: (sql: Sql) => Promise<T>) => Promise<T>

// Enabled connections nobody holds, or whose lease ran out, picked at random and locked as they
// are picked (NO KEY UPDATE: it does not wait for units inserting rows that reference the
// connection), skipping those another server's claim has locked; then their leases, each with one
// more fence than the last holder's. The upsert checks the expiry again: a lease renewed since the
// pick is left alone, and one a unit holds FOR SHARE is taken once that unit has committed.
const CLAIM = `WITH picked AS (
    SELECT c.id FROM connections c LEFT JOIN leases l ON l.connection_id = c.id
    WHERE c.enabled AND (l.name IS NULL OR l.expires_at <= now())
    ORDER BY random() LIMIT $2
    FOR NO KEY UPDATE OF c SKIP LOCKED)
  INSERT INTO leases (name, connection_id, holder, fence, acquired_at, expires_at)
  SELECT 'connection:' || id, id, $1, 1, now(), ${FROM_NOW('$3')} FROM picked
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, fence = leases.fence + 1, acquired_at = now(), expires_at = excluded.expires_at
    WHERE leases.expires_at <= now()
  RETURNING ${LEASE_COLUMNS('leases')}`

const ACQUIRE = `INSERT INTO leases (name, connection_id, holder, fence, acquired_at, expires_at)
  VALUES ($1, $2, $3, 1, now(), ${FROM_NOW('$4')})
  ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, fence = leases.fence + 1, acquired_at = now(), expires_at = excluded.expires_at
    WHERE leases.expires_at <= now()
  RETURNING ${LEASE_COLUMNS('leases')}`

/** How long an acquisition waits for a lease row a unit holds FOR SHARE: a live unit commits in
 *  milliseconds; one whose process stalled mid-unit (its session idle in its transaction until
 *  PostgreSQL ends it: STALLED_TRANSACTION_ENDS_AFTER_MS, pool.ts) is not waited for — the keeper's
 *  pass goes on (its renewals first of all) and the next pass tries again. */
const LOCK_WAIT = "SET LOCAL lock_timeout = '250ms'"
const LOCK_NOT_AVAILABLE = '55P03'
const lockNotAvailable = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE

export function leaseTable(single: Sql, inTransaction: InTransaction): LeaseStore {
  return {
    acquire: (name, holder, lengthMs) =>
      inTransaction(async (sql) => {
        await sql(LOCK_WAIT)
        try {
          return await one<Lease>(sql, ACQUIRE, [name, leasedConnection(name), holder, lengthMs])
        } catch (error) {
          // Held FOR SHARE by a unit that does not end (its holder stalled): not this time.
          if (lockNotAvailable(error)) return null
          throw error
        }
      }),

    async renew(leases, lengthMs) {
      if (leases.length === 0) return []
      return all<Lease>(
        single,
        `UPDATE leases l SET expires_at = ${FROM_NOW('$4')}
          FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r (name, holder, fence)
          WHERE l.name = r.name AND l.holder = r.holder AND l.fence = r.fence
          RETURNING ${LEASE_COLUMNS('l')}`,
        [leases.map((l) => l.name), leases.map((l) => l.holder), leases.map((l) => l.fence), lengthMs]
      )
    },

    async release(lease: Fence) {
      // Ran out at once: holder and fence stay, so the next holder's fence is one more.
      const { count } = await single(
        'UPDATE leases SET expires_at = least(expires_at, now()) WHERE name = $1 AND holder = $2 AND fence = $3',
        [lease.name, lease.holder, lease.fence]
      )
      return count > 0
    },

    claimShare: (holder, lengthMs) =>
      inTransaction(async (sql): Promise<ShareClaim> => {
        await sql(
          `INSERT INTO lease_holders (holder, seen_until) VALUES ($1, ${FROM_NOW('$2')})
            ON CONFLICT (holder) DO UPDATE SET seen_until = excluded.seen_until`,
          [holder, lengthMs]
        )
        await sql('DELETE FROM lease_holders WHERE seen_until <= now()')
        const counts = await one<{ enabled: number; live: number; held: number }>(
          sql,
          `SELECT (SELECT count(*) FROM connections WHERE enabled) AS enabled,
             (SELECT count(*) FROM lease_holders) AS live,
             (SELECT count(*) FROM leases l JOIN connections c ON c.id = l.connection_id
               WHERE l.holder = $1 AND c.enabled AND l.expires_at > now()) AS held`,
          [holder]
        )
        const { enabled, live, held } = counts!
        const share = Math.ceil(enabled / Math.max(1, live))
        let acquired: Lease[] = []
        if (share > held) {
          // A lease row a stalled holder's unit keeps locked is not waited for: this pass claims
          // nothing more, its heartbeat still counts, and the next pass tries again.
          await sql('SAVEPOINT claim')
          await sql(LOCK_WAIT)
          try {
            acquired = await all<Lease>(sql, CLAIM, [holder, share - held, lengthMs])
            await sql('RELEASE SAVEPOINT claim')
          } catch (error) {
            if (!lockNotAvailable(error)) throw error
            await sql('ROLLBACK TO SAVEPOINT claim')
          }
        }
        const disabled = await all<{ id: string }>(
          sql,
          `SELECT l.connection_id AS id FROM leases l JOIN connections c ON c.id = l.connection_id
            WHERE l.holder = $1 AND NOT c.enabled AND l.expires_at > now() ORDER BY l.connection_id`,
          [holder]
        )
        return { share, acquired, disabled: disabled.map((row) => row.id) }
      }),

    leave: (holder) =>
      inTransaction(async (sql) => {
        await sql('UPDATE leases SET expires_at = now() WHERE holder = $1 AND expires_at > now()', [holder])
        await sql('DELETE FROM lease_holders WHERE holder = $1', [holder])
      }),

    get: (name) => one<Lease>(single, `SELECT ${LEASE_COLUMNS('leases')} FROM leases WHERE name = $1`, [name]),

    list: () => all<Lease>(single, `SELECT ${LEASE_COLUMNS('leases')} FROM leases ORDER BY name`),

    held: () => all<Lease>(single, `SELECT ${LEASE_COLUMNS('leases')} FROM leases WHERE expires_at > now() ORDER BY name`)
  }
}

/**
 * The first statement of a unit fenced with `fence`: the lease row, still this holder's with this
 * fence, locked FOR SHARE until the unit ends — a new holder's acquisition (and, for milliseconds,
 * the holder's own renewal) waits for the unit to commit. No row: the lease is lost, and the lease
 * as it is now says to whom (null when its row is gone).
 */
export async function checkFence(sql: Sql, fence: Fence): Promise<{ held: true } | { held: false; now: Lease | null }> {
  const held = await one(sql, 'SELECT 1 FROM leases WHERE name = $1 AND holder = $2 AND fence = $3 FOR SHARE', [fence.name, fence.holder, fence.fence])
  if (held) return { held: true }
  return { held: false, now: await one<Lease>(sql, `SELECT ${LEASE_COLUMNS('leases')} FROM leases WHERE name = $1`, [fence.name]) }
}

/**
 * A check run first in a transaction that writes for a connection outside the units (the viewer
 * list writer's): this server still holds the connection's lease (`fenceOf`), and holds its row
 * FOR SHARE until the transaction ends — as a fenced unit does. Throws when it does not.
 */
export function leaseGuard(fenceOf: (connectionId: string) => Fence | null): (sql: Sql, connectionId: string) => Promise<void> {
  return async (sql, connectionId) => {
    const fence = fenceOf(connectionId)
    if (fence === null) throw new Error(`this server holds no lease of connection ${connectionId}: it writes nothing for it`)
    const check = await checkFence(sql, fence)
    if (!check.held) throw new LeaseLostError(fence, check.now)
  }
}
