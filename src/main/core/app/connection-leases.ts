// Where several servers share one PostgreSQL database (docs/scaling-plan.md section 2): this
// server's share of the connections and the team's jobs, kept by the LeaseKeeper, turned into
// pollers started and stopped here. A connection taken over (fence > 1) is first cleaned up in a
// unit fenced with the new lease — the runs its last holder left unfinished are marked stopped —
// and only then polled. A lost lease stops its poller at once; one given up (over the share,
// switched off, the server stopping) at the poller's next pass boundary. Every unit written for a
// lease is fenced with it, so a holder that stalled past its lease writes nothing when it wakes.
import type { CoreMetrics } from '../metrics/metrics'
import { connectionLease, LEASE_RENEWAL_MS, LeaseLostError, type Lease, type LeaseStore } from '../store/interface/leases'
import type { Store } from '../store/interface/store'
import { LeaseKeeper, type JobCallbacks } from '../sync/lease-keeper'
import type { Timers } from '../../../shared/timers'

export interface LeaseTiming {
  /** How long a lease lasts unless renewed (default 30 s). */
  lengthMs: number
  /** How often the keeper renews and claims (default 10 s); under half the length. */
  renewEveryMs: number
}

/** What the leases start and stop: this server's pollers (PollerGroup). */
export interface HeldConnections {
  /** This server holds the connection now, its takeover cleaned up: poll it. */
  hold(connectionId: string): void
  /** Stop polling it: at once (`signal` null), or at its poller's pass boundary, cut short when
   *  `signal` aborts. */
  letGo(connectionId: string, signal: AbortSignal | null): Promise<void>
}

/** A job of the team, run by the one server holding its lease. */
export interface TeamJob {
  started(): void
  stopped(): void | Promise<void>
}

export interface ConnectionLeasesOptions {
  /** This server: leaseHolderId(). */
  holder: string
  timing?: Partial<LeaseTiming>
  /** The team's jobs by name ('retention', 'repeats'): each runs on one server at a time. */
  jobs?: Record<string, TeamJob>
  metrics?: CoreMetrics
  clock?: () => number
  timers?: Timers
  /** A line for the server's log (takeovers, losses, the database unreachable). */
  log?: (line: string) => void
  /** After a takeover's runs are stopped, before polling: what else the last holder left behind
   *  (its staged viewer lists). A failure is said and polling goes on. */
  takenOver?: (connectionId: string) => Promise<unknown>
}

export class ConnectionLeases {
  readonly holder: string
  /** The connections whose pollers may run here: held, and cleaned up after a takeover. */
  private readonly ready = new Map<string, Lease>()
  /** Held, the takeover's clean-up under way. */
  private readonly taking = new Map<string, Lease>()
  private readonly jobs = new Map<string, Lease>()
  private readonly keeper: LeaseKeeper
  private readonly clock: () => number
  private readonly log: (line: string) => void
  private held: HeldConnections | null = null
  private lastError = ''

  constructor(
    private readonly leases: LeaseStore,
    private readonly store: Store,
    private readonly options: ConnectionLeasesOptions
  ) {
    this.holder = options.holder
    this.clock = options.clock ?? Date.now
    this.log = options.log ?? ((line) => console.error(line))
    const jobs: Record<string, JobCallbacks> = {}
    for (const [name, job] of Object.entries(options.jobs ?? {})) {
      jobs[name] = {
        started: (lease) => {
          this.jobs.set(name, lease)
          if (lease.fence > 1) options.metrics?.leaseTakenOver(lease.name)
          this.log(`eventwatch: this server runs the team's ${name} job (lease fence ${lease.fence})`)
          job.started()
        },
        lost: (why) => {
          this.jobs.delete(name)
          void Promise.resolve(job.stopped()).catch((error: unknown) => this.log(`eventwatch: stopping the job ${name} failed: ${String(error)}`))
          if (!why.startsWith('this server is')) this.log(`eventwatch: gave up the job ${name}: ${why}`)
        }
      }
    }
    this.keeper = new LeaseKeeper({
      leases,
      holder: options.holder,
      ...(options.timing?.lengthMs !== undefined ? { lengthMs: options.timing.lengthMs } : {}),
      ...(options.timing?.renewEveryMs !== undefined ? { renewEveryMs: options.timing.renewEveryMs } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      jobs,
      started: (connectionId, lease) => void this.take(connectionId, lease),
      lost: (connectionId, why) => {
        this.taking.delete(connectionId)
        this.ready.delete(connectionId)
        this.log(`eventwatch: gave up connection ${connectionId}: ${why}`)
        void this.held?.letGo(connectionId, null)
      },
      surrender: async (connectionId, _why, signal) => {
        this.taking.delete(connectionId)
        // Still ours until its poller has stopped: its last unit (and that unit's judgement) is fenced with it.
        await this.held?.letGo(connectionId, signal)
        this.ready.delete(connectionId)
      },
      onError: (error) => {
        const words = `eventwatch: keeping this server's leases failed: ${error instanceof Error ? error.message : String(error)}`
        // Said once while it lasts, not at every renewal period.
        if (words !== this.lastError) this.log(words)
        this.lastError = words
      }
    })
  }

  /** How often the leases are renewed: a team's rows are read again as often. */
  get renewEveryMs(): number {
    return this.options.timing?.renewEveryMs ?? LEASE_RENEWAL_MS
  }

  /** The pollers the leases start and stop; then the keeper starts (its first pass at once). */
  start(held: HeldConnections): void {
    this.held = held
    this.keeper.start()
  }

  /** A clean stop: every poller stopped, every lease released, so a peer takes over at once. */
  async stop(signal?: AbortSignal): Promise<void> {
    await this.keeper.stop(signal)
    this.ready.clear()
    this.taking.clear()
    this.jobs.clear()
  }

  /** This server's lease of the connection, once its poller may run; null when it holds none. */
  leaseOf(connectionId: string): Lease | null {
    return this.ready.get(connectionId) ?? null
  }

  /** The lease of a team job ('retention', 'repeats') while this server runs it; else null. */
  jobLease(job: string): Lease | null {
    return this.jobs.get(job) ?? null
  }

  /** Every lease held now by any server of the team, as the database says. */
  heldNow(): Promise<Lease[]> {
    return this.leases.held()
  }

  /** Every lease this server holds now: connections (ready or being taken over) and jobs. */
  heldHere(): Lease[] {
    return [...this.ready.values(), ...this.taking.values(), ...this.jobs.values()]
  }

  /** A connection's lease came to this server: a takeover is cleaned up first, then it is polled. */
  private async take(connectionId: string, lease: Lease): Promise<void> {
    this.taking.set(connectionId, lease)
    if (lease.fence > 1) {
      this.options.metrics?.leaseTakenOver(lease.name)
      this.log(`eventwatch: took over connection ${connectionId} (lease fence ${lease.fence})`)
      const why =
        `its server stopped or stalled before finishing it; ${this.holder} took ${connectionLease(connectionId)} over ` +
        `(fence ${lease.fence - 1} → ${lease.fence})`
      try {
        await this.store.withTransaction((tx) => tx.runs.stopUnfinished(connectionId, why, this.clock()), { fence: lease })
      } catch (error) {
        // Lost again already: the keeper says so. Another fault: polling goes on, the runs stay open.
        if (error instanceof LeaseLostError) return
        this.log(`eventwatch: marking the unfinished runs of connection ${connectionId} stopped failed: ${String(error)}`)
      }
      await this.options.takenOver?.(connectionId).catch((error: unknown) => {
        this.log(`eventwatch: clearing what the last holder of connection ${connectionId} left failed: ${String(error)}`)
      })
    }
    if (this.taking.get(connectionId) !== lease) return
    this.taking.delete(connectionId)
    this.ready.set(connectionId, lease)
    this.held?.hold(connectionId)
  }
}
