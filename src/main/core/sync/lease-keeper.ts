// Keeps one server's leases on a PostgreSQL database shared by several (docs/scaling-plan.md
// section 2): every renewal period it renews what it holds, claims its fair share of the enabled
// connections (and the jobs nobody runs), and gives up what is over its share or switched off at
// a pass boundary of its owner's. It says when a lease starts and when it is lost, and the owner
// starts or stops that connection's poller, fencing every unit of work with the lease.
//
// A lease is given up for lost when a renewal fails, or has not gone through by the lease's end
// less one renewal period, timed on this process's MONOTONIC clock from when the last renewal
// that went through was sent: the database's lease cannot have run out before then, so the poller
// stops before another server may take the connection. A clean stop releases everything, so a
// restarted server or a peer takes over at once rather than when the leases run out.
import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import { realTimers, type Timers } from '../../../shared/timers'
import { abortable } from '../net/abort'
import {
  connectionLease,
  jobLease,
  LEASE_LENGTH_MS,
  LEASE_RENEWAL_MS,
  leasedConnection,
  leaseLostWords,
  leaseSubject,
  type Lease,
  type LeaseStore
} from '../store/interface/leases'

/** What names this server as a holder: host:pid:boot-uuid (a restart is another holder). */
export const leaseHolderId = (): string => `${hostname()}:${process.pid}:${randomUUID()}`

/** Why the keeper gives a connection up: over its fair share, switched off, or the keeper stopping. */
export type SurrenderReason = 'surplus' | 'disabled' | 'stopping'

export interface JobCallbacks {
  /** This server now runs the job (until `lost`). */
  started(lease: Lease): void
  lost(why: string): void
}

export interface LeaseKeeperOptions {
  leases: LeaseStore
  /** This server: leaseHolderId(). */
  holder: string
  /** How long a lease lasts unless renewed (default 30 s). */
  lengthMs?: number
  /** How often the keeper renews and claims (default 10 s); under half the length. */
  renewEveryMs?: number
  /** Jobs one server of the team runs, by name ('retention', 'repeats'): the keeper takes each
   *  one's lease whenever nobody holds it. */
  jobs?: Record<string, JobCallbacks>
  timers?: Timers
  /** Milliseconds that never go back (default performance.now): deadlines are timed on it. */
  monotonic?: () => number
  /** This server now holds the connection's lease: poll it, every unit fenced with `lease`. */
  started(connectionId: string, lease: Lease): void
  /** The lease is lost, or about to be: stop polling the connection at once. */
  lost(connectionId: string, why: string): void
  /** Give the connection up at the poller's next pass boundary (at once when `signal` aborts):
   *  its lease is released when this settles, and renewed until then. Default: at once. */
  surrender?(connectionId: string, why: SurrenderReason, signal: AbortSignal): Promise<void>
  /** A pass that could not reach the database; the next period tries again. */
  onError?(error: unknown): void
}

interface Held {
  lease: Lease
  /** Monotonic ms when the last acquisition or renewal that went through was sent. */
  sentAt: number
  surrendering: boolean
}

export class LeaseKeeper {
  private readonly held = new Map<string, Held>()
  private readonly surrenders = new Set<Promise<void>>()
  private readonly lengthMs: number
  private readonly renewEveryMs: number
  private readonly timers: Timers
  private readonly monotonic: () => number
  /** Aborted by stop(): every wait of a pass ends at once. */
  private readonly stopping = new AbortController()
  private passTimer: unknown = null
  private watchdog: unknown = null
  private pass: Promise<void> | null = null
  private running = false
  /** The database's calls a pass sent and a stop stopped waiting for: they may still commit (a
   *  claim takes leases and writes the heartbeat), so the stop's leave() waits for them first. */
  private readonly sent = new Set<Promise<unknown>>()

  constructor(private readonly options: LeaseKeeperOptions) {
    this.lengthMs = options.lengthMs ?? LEASE_LENGTH_MS
    this.renewEveryMs = options.renewEveryMs ?? LEASE_RENEWAL_MS
    if (!(this.renewEveryMs > 0 && this.lengthMs > 2 * this.renewEveryMs)) {
      throw new Error(
        `a lease of ${this.lengthMs} ms renewed every ${this.renewEveryMs} ms would be given up before its next renewal: ` +
          'make the lease more than twice the renewal period'
      )
    }
    this.timers = options.timers ?? realTimers
    this.monotonic = options.monotonic ?? (() => performance.now())
  }

  /** The connections whose leases this server holds now. */
  get connections(): string[] {
    return [...this.held.keys()].map(leasedConnection).filter((id): id is string => id !== null)
  }

  /** Starts keeping: the first pass at once. */
  start(): void {
    if (this.running || this.stopping.signal.aborted) return
    this.running = true
    this.schedulePass(0)
  }

  /**
   * A clean stop: no pass after it; every connection surrendered (its poller stopped), then every
   * lease released and this server's heartbeat removed, in one transaction. `signal` bounds the
   * wait for the database (a stop that cannot reach it leaves the leases to run out).
   */
  async stop(signal?: AbortSignal): Promise<void> {
    if (this.stopping.signal.aborted) return
    this.running = false
    this.stopping.abort()
    this.cancel(this.passTimer)
    this.cancel(this.watchdog)
    await this.pass
    for (const [name, held] of this.held) if (!held.surrendering) this.surrender(name, held, 'stopping')
    await Promise.all(this.surrenders)
    this.held.clear()
    // A claim cut short here may commit yet: leave() after it, or it would leave this server's
    // heartbeat and the leases it took behind (its peers waiting a lease for them).
    await abortable(Promise.allSettled([...this.sent]), signal)
    await abortable(this.options.leases.leave(this.options.holder), signal)
  }

  private schedulePass(delayMs: number): void {
    this.passTimer = this.timers.setTimeout(() => {
      this.passTimer = null
      const began = this.monotonic()
      this.pass = this.renewAndClaim().finally(() => {
        this.pass = null
        if (this.running) this.schedulePass(began + this.renewEveryMs - this.monotonic())
      })
    }, Math.max(0, delayMs))
  }

  private async renewAndClaim(): Promise<void> {
    try {
      await this.renew()
      if (!this.running) return
      await this.claim()
      if (!this.running) return
      await this.claimJobs()
    } catch (error) {
      if (this.running) this.options.onError?.(error)
    } finally {
      this.armWatchdog()
    }
  }

  /** Renews every lease held, in one statement; those not renewed are lost. */
  private async renew(): Promise<void> {
    const sent = [...this.held.values()]
    if (sent.length === 0) return
    const sentAt = this.monotonic()
    let renewed: Lease[]
    try {
      renewed = await this.untilStopped(this.options.leases.renew(sent.map((held) => held.lease), this.lengthMs))
    } catch (error) {
      if (!this.running) return
      const cause = error instanceof Error ? error.message : String(error)
      for (const held of sent) this.lose(held, `the renewal of the lease of ${leaseSubject(held.lease.name)} failed: ${cause}`)
      return
    }
    const byName = new Map(renewed.map((lease) => [lease.name, lease]))
    for (const held of sent) {
      const lease = byName.get(held.lease.name)
      if (this.held.get(held.lease.name) !== held) {
        // Given up for lost while the renewal was on its way, then renewed late: free it for a peer.
        if (lease) void this.release(lease)
      } else if (lease) {
        held.lease = lease
        held.sentAt = sentAt
      } else {
        const now = await this.options.leases.get(held.lease.name).catch(() => undefined)
        const why = now === undefined ? `the lease of ${leaseSubject(held.lease.name)} was not renewed` : leaseLostWords(held.lease, now)
        if (this.held.get(held.lease.name) === held) this.lose(held, why)
      }
    }
  }

  /** This server's fair share: what it is short of, taken; what is over it or switched off, given up. */
  private async claim(): Promise<void> {
    const sentAt = this.monotonic()
    const claim = await this.untilStopped(this.options.leases.claimShare(this.options.holder, this.lengthMs))
    for (const lease of claim.acquired) this.take(lease, sentAt)
    for (const connectionId of claim.disabled) {
      const name = connectionLease(connectionId)
      const held = this.held.get(name)
      if (held && !held.surrendering) this.surrender(name, held, 'disabled')
    }
    const kept = [...this.held.entries()].filter(([name, held]) => leasedConnection(name) !== null && !held.surrendering)
    // Over the share, the newest go: they have done the least work here.
    for (const [name, held] of kept.slice(claim.share)) this.surrender(name, held, 'surplus')
  }

  /** Each job nobody holds: its lease taken, and the job started here. */
  private async claimJobs(): Promise<void> {
    for (const job of Object.keys(this.options.jobs ?? {})) {
      if (!this.running) return
      const name = jobLease(job)
      if (this.held.has(name)) continue
      const sentAt = this.monotonic()
      const lease = await this.untilStopped(this.options.leases.acquire(name, this.options.holder, this.lengthMs))
      if (lease) this.take(lease, sentAt)
    }
  }

  /** A call to the database, waited for until it answers or the keeper stops; kept till it settles. */
  private untilStopped<T>(call: Promise<T>): Promise<T> {
    this.sent.add(call)
    void call.then(
      () => this.sent.delete(call),
      () => this.sent.delete(call)
    )
    return abortable(call, this.stopping.signal)
  }

  private take(lease: Lease, sentAt: number): void {
    this.held.set(lease.name, { lease, sentAt, surrendering: false })
    const connectionId = leasedConnection(lease.name)
    if (connectionId !== null) this.options.started(connectionId, lease)
    else this.jobOf(lease.name)?.started(lease)
  }

  /** Gives the lease up for lost: its owner stops at once; released (for a peer) if still ours. */
  private lose(held: Held, why: string): void {
    const { name } = held.lease
    if (this.held.get(name) !== held) return
    this.held.delete(name)
    const connectionId = leasedConnection(name)
    if (connectionId !== null) this.options.lost(connectionId, why)
    else this.jobOf(name)?.lost(why)
    void this.release(held.lease)
  }

  /** The owner stops at a pass boundary; then the lease is released. Renewed until then. */
  private surrender(name: string, held: Held, why: SurrenderReason): void {
    held.surrendering = true
    const connectionId = leasedConnection(name)
    const job = this.jobOf(name)
    const stopped =
      connectionId !== null
        ? (this.options.surrender?.(connectionId, why, this.stopping.signal) ?? Promise.resolve())
        : Promise.resolve(job?.lost(`this server is ${why === 'stopping' ? 'stopping' : 'giving the job up'}`))
    const done = stopped
      .catch((error: unknown) => this.options.onError?.(error))
      .then(async () => {
        if (this.held.get(name) !== held) return
        this.held.delete(name)
        // On a stop, leave() releases everything in one transaction.
        if (why !== 'stopping') await this.release(held.lease)
      })
      .finally(() => this.surrenders.delete(done))
    this.surrenders.add(done)
  }

  private async release(lease: Lease): Promise<void> {
    await this.options.leases.release(lease).catch((error: unknown) => this.options.onError?.(error))
  }

  private jobOf(name: string): JobCallbacks | undefined {
    return name.startsWith('job:') ? this.options.jobs?.[name.slice('job:'.length)] : undefined
  }

  /** Fires when the first lease held reaches its deadline: the end of the lease, as this process
   *  can be sure of it, less one renewal period. */
  private armWatchdog(): void {
    this.cancel(this.watchdog)
    this.watchdog = null
    if (!this.running || this.held.size === 0) return
    const first = Math.min(...[...this.held.values()].map((held) => this.deadline(held)))
    this.watchdog = this.timers.setTimeout(() => {
      this.watchdog = null
      const now = this.monotonic()
      for (const held of [...this.held.values()]) {
        if (now >= this.deadline(held)) {
          this.lose(
            held,
            `the renewal of the lease of ${leaseSubject(held.lease.name)} has not gone through in ${Math.round((now - held.sentAt) / 1000)} s ` +
              `(the lease runs out ${Math.round(this.lengthMs / 1000)} s after a renewal is sent): this server stops before another may take it`
          )
        }
      }
      this.armWatchdog()
    }, Math.max(0, first - this.monotonic()))
  }

  private deadline(held: Held): number {
    return held.sentAt + this.lengthMs - this.renewEveryMs
  }

  private cancel(timer: unknown): void {
    if (timer !== null) this.timers.clearTimeout(timer)
  }
}
