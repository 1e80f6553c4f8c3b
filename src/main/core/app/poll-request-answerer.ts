// Answering what other servers ask of the connections this one holds (docs/scaling-plan.md
// section 2, "Requests that reach into a poller"). On each `ew_poll_requests` notification (a
// connection's id) for a connection whose poller runs here, its waiting requests are claimed — in
// a unit fenced with its lease, so only its holder claims, and each request once — run with the
// poller here, and answered on their rows (`ew_poll_answers` tells the asker). A connection taken
// over picks up what was asked of its last holder and not yet taken; so does every connection held
// when the listening connection comes back after a drop.
import { LeaseLostError, type Lease } from '../store/interface/leases'
import type { PollOutcome, PollRequest } from '../store/interface/poll-requests'
import type { Store } from '../store/interface/store'

/** What runs the requests: this server's pollers (PollerGroup). */
export interface PollRunner {
  /** The connections whose pollers run here. */
  runningHere(): string[]
  /** Runs one request with the connection's poller here; its answer, as JSON. */
  run(request: PollRequest): Promise<unknown>
}

export interface PollAnswererOptions {
  /** This server: host:pid:boot-uuid. */
  holder: string
  /** This server's lease of a connection, once its poller may run; null when it holds none. */
  leaseOf(connectionId: string): Lease | null
  /** Where what went wrong is said, in one sentence (default: stderr). */
  say?: (line: string) => void
}

const causeOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class PollAnswerer {
  private readonly under = new Set<Promise<void>>()
  private stopped = false

  private constructor(
    private readonly store: Store,
    private readonly runner: PollRunner,
    private readonly options: PollAnswererOptions,
    private readonly say: (line: string) => void
  ) {}

  /** Listens for requests, then picks up what waits for the connections held here already. */
  static async start(store: Store, runner: PollRunner, options: PollAnswererOptions): Promise<{ answerer: PollAnswerer; stop(): Promise<void> }> {
    if (!store.notifications) throw new Error('this store delivers no notifications (SQLite: one server per file), so no other server asks this one')
    const say = options.say ?? ((line: string) => console.error(`eventwatch: ${line}`))
    const answerer = new PollAnswerer(store, runner, options, say)
    const unlisten = await store.notifications.listen('ew_poll_requests', {
      notified: (connectionId) => answerer.pickUp(connectionId),
      resumed: () => answerer.pickUpAll()
    })
    answerer.pickUpAll()
    return {
      answerer,
      async stop() {
        answerer.stopped = true
        await unlisten()
        while (answerer.under.size > 0) await Promise.all(answerer.under)
      }
    }
  }

  /** Claims and runs what waits for `connectionId`, if its poller runs here; in the background. */
  pickUp(connectionId: string): void {
    const lease = this.options.leaseOf(connectionId)
    if (this.stopped || lease === null || !this.runner.runningHere().includes(connectionId)) return
    const work = this.claimAndRun(connectionId, lease).catch((error: unknown) => {
      this.say(`answering the requests other servers made of connection ${connectionId} failed (${causeOf(error)}); their askers will say so`)
    })
    this.under.add(work)
    void work.finally(() => this.under.delete(work))
  }

  /** Every connection held here: what was asked while this server was not listening. */
  pickUpAll(): void {
    for (const connectionId of this.runner.runningHere()) this.pickUp(connectionId)
  }

  private async claimAndRun(connectionId: string, lease: Lease): Promise<void> {
    let claimed: PollRequest[]
    try {
      claimed = await this.store.withTransaction((tx) => tx.pollRequests.claim(connectionId, this.options.holder), { fence: lease })
    } catch (error) {
      // Lost meanwhile: its new holder picks them up as it takes the connection over.
      if (error instanceof LeaseLostError) return
      throw error
    }
    await Promise.all(claimed.map((request) => this.runOne(request)))
  }

  private async runOne(request: PollRequest): Promise<void> {
    const outcome: PollOutcome = await this.runner.run(request).then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error: causeOf(error) })
    )
    await this.store.withTransaction(async (tx) => {
      await tx.pollRequests.answer(request.id, this.options.holder, outcome)
      await tx.notifications.send('ew_poll_answers', String(request.id))
    })
  }
}
