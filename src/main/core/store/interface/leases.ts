// The leases concern of a PostgreSQL store (docs/scaling-plan.md section 2; docs/store.md): several
// servers on one database take turns at its connections (each polled by its lease's holder alone)
// and its jobs (retention, the critical repeats: one server of the team runs each), and every unit
// of work a holder writes for a lease is fenced with it, so a holder that stalled past its lease
// and woke without it writes nothing.
//
// SQLite has none: one server (or one desk) per cache file polls every connection and runs every
// job itself, so there is nothing to share, and a fenced unit on SQLite is refused rather than
// let through unchecked.
//
// Every expiry is compared with the database's now(), never a host's clock: a holder times its own
// deadline on its monotonic clock from when it sent the renewal (core/sync/lease-keeper.ts).

/** Default lease length, and how often a holder renews: a renewal not through by the lease's
 *  expiry less one period means the lease is given up for lost before it really runs out. */
export const LEASE_LENGTH_MS = 30_000
export const LEASE_RENEWAL_MS = 10_000

/** What a unit of work is fenced with: the lease it writes under. */
export interface Fence {
  /** 'connection:<id>' or 'job:<name>' (connectionLease, jobLease). */
  name: string
  /** The server holding it: host:pid:boot-uuid. */
  holder: string
  /** Goes up by one at every acquisition: an older one is no longer the holder's. */
  fence: number
}

export interface Lease extends Fence {
  /** When it runs out unless renewed, on the database's clock (ms since the epoch): for words,
   *  metrics and tests. A holder never compares it with its own clock. */
  expiresAt: number
}

/** What one claim of a server's fair share did. */
export interface ShareClaim {
  /** How many connections each live server should hold: the enabled ones over the live servers
   *  (those whose heartbeat has not run out), rounded up. */
  share: number
  /** The leases this claim took: enabled connections nobody held, or whose lease had run out. */
  acquired: Lease[]
  /** The connections this holder holds a lease of although they are switched off: to give up. */
  disabled: string[]
}

export interface LeaseStore {
  /** The lease `name` for `holder`, for `lengthMs`, when nobody holds it or its lease ran out
   *  (the fence then one more than the last holder's); null while another holds it. */
  acquire(name: string, holder: string, lengthMs: number): Promise<Lease | null>
  /** Renews each lease its holder still holds with that fence, for `lengthMs` from now; the ones
   *  not answered are lost (taken over, released, or their connection removed). One statement. */
  renew(leases: readonly Fence[], lengthMs: number): Promise<Lease[]>
  /** Gives the lease up at once (a peer may take it in the next instant); false when it was no
   *  longer the holder's. The fence is kept: the next holder's is one more. */
  release(lease: Fence): Promise<boolean>
  /**
   * One pass of a server's share, in one transaction: its heartbeat renewed for `lengthMs`, then
   * as many enabled connections nobody holds (or whose lease ran out) as it is short of its fair
   * share, locked as they are picked (FOR UPDATE SKIP LOCKED: servers claiming at the same time
   * never pick the same ones), and their leases acquired.
   */
  claimShare(holder: string, lengthMs: number): Promise<ShareClaim>
  /** A clean stop: every lease `holder` still holds released, and its heartbeat removed, so its
   *  peers take its connections and their shares grow at once, not when the leases run out. */
  leave(holder: string): Promise<void>
  /** Who holds `name` now (expired or not), or null when it was never taken. */
  get(name: string): Promise<Lease | null>
  /** Every lease, by name. */
  list(): Promise<Lease[]>
  /** The leases held now (not run out, by the database's clock), by name: what a server that does
   *  not hold a connection reads to tell a live holder from one whose lease ran out. */
  held(): Promise<Lease[]>
}

/** The lease of a connection: whoever holds it polls it and writes its sessions. */
export const connectionLease = (connectionId: string): string => `connection:${connectionId}`

/** The lease of a job run by one server of the team ('retention', 'repeats'). */
export const jobLease = (job: string): string => `job:${job}`

/** The connection a lease is of, or null for a job's. */
export function leasedConnection(name: string): string | null {
  return name.startsWith('connection:') ? name.slice('connection:'.length) : null
}

/** "connection X" or "job retention": what a lease is of, in words. */
export function leaseSubject(name: string): string {
  const connection = leasedConnection(name)
  if (connection !== null) return `connection ${connection}`
  return name.startsWith('job:') ? `job ${name.slice('job:'.length)}` : name
}

/** A unit of work fenced with a lease its server no longer holds: rolled back, nothing written. */
export class LeaseLostError extends Error {
  constructor(
    readonly fence: Fence,
    readonly now: Lease | null
  ) {
    super(`${leaseLostWords(fence, now)}: this server no longer writes for it, and the unit of work was rolled back`)
    this.name = 'LeaseLostError'
  }
}

/** Why `fence` is no longer its holder's, from the lease as it is `now` (null: its row is gone). */
export function leaseLostWords(fence: Fence, now: Lease | null): string {
  const what = `the lease of ${leaseSubject(fence.name)}`
  if (now === null) return `${what} is gone (its connection was removed)`
  if (now.fence === fence.fence && now.holder === fence.holder) return `${what} was not renewed (fence ${fence.fence})`
  if (now.holder === fence.holder) return `${what} ran out and was taken again (fence ${fence.fence} → ${now.fence})`
  return `${what} was taken over by ${now.holder} (fence ${fence.fence} → ${now.fence})`
}
