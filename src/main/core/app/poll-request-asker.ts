// Asking the holder of a connection (docs/scaling-plan.md section 2, "Requests that reach into a
// poller"): a request that needs a poller this server does not run becomes a row of
// poll_requests, notified to every server (`ew_poll_requests`); the holder runs it and answers on
// the row (`ew_poll_answers`). The asker waits for that answer until the kind's deadline, or until
// its signal (the request's, or this server stopping) aborts, and then withdraws the request: one
// nobody took by then never runs. One the holder took and did not answer (it died or stalled
// mid-request) is never run again either; the asker says so, in one sentence.
import type { Timers } from '../../../shared/timers'
import { realTimers } from '../../../shared/timers'
import { abortable, anySignal } from '../net/abort'
import type { PollRequest, PollRequestKind } from '../store/interface/poll-requests'
import type { Store } from '../store/interface/store'
import { POLL_REQUEST_KINDS, seconds, type PollAnswer, type PollArguments } from './poll-request-kinds'

/** How often a wait reads its row again, whatever it heard: an answer whose notification was
 *  lost (the listening connection dropped and came back in between) is still seen. */
const READ_AGAIN_MS = 5_000

export interface AskedFor {
  /** The connection's name, for the sentences. */
  connectionName: string
  /** Its holder now, as this server last read the leases (null: nobody holds it yet). */
  holder: string | null
  /** Who asked (the operator), for the row. */
  actor?: string | null
  /** Ends the wait early (the request's own caller giving up). */
  signal?: AbortSignal
  /** Once the request is on its row and notified: the wait for its answer begins. */
  onAsked?: () => void
}

export interface PollAskerOptions {
  /** This server: host:pid:boot-uuid. */
  holder: string
  timers?: Timers
}

export class PollAsker {
  /** The waits under way, by request id: each woken when its answer is heard. */
  private readonly waiting = new Map<number, () => void>()
  private readonly stopping = new AbortController()

  private unlisten: () => Promise<void> = async () => undefined

  private constructor(
    private readonly store: Store,
    private readonly options: PollAskerOptions
  ) {}

  /** Listens for answers first: an answer committed from then on is heard. */
  static async start(store: Store, options: PollAskerOptions): Promise<PollAsker> {
    if (!store.notifications) throw new Error('this store delivers no notifications (SQLite: one server per file), so there is no other server to ask')
    const asker = new PollAsker(store, options)
    asker.unlisten = await store.notifications.listen('ew_poll_answers', {
      notified: (payload) => asker.waiting.get(Number(payload))?.(),
      // Answers sent while the connection was down are lost: every wait reads its row again.
      resumed: () => {
        for (const wakeUp of asker.waiting.values()) wakeUp()
      }
    })
    return asker
  }

  /**
   * Asks the holder of `connectionId` to run `kind`, and resolves with its answer; rejects with
   * its error, or when no answer came by the kind's deadline, in one sentence that names who.
   */
  async ask<K extends PollRequestKind>(kind: K, connectionId: string, args: PollArguments<K>, asked: AskedFor): Promise<PollAnswer<K>> {
    const { deadlineMs, what } = POLL_REQUEST_KINDS[kind]
    const about = `${what} of ${asked.connectionName}`
    const signal = anySignal(this.stopping.signal, asked.signal)
    if (signal?.aborted) throw new Error(`this server did not ask the server polling ${asked.connectionName} to ${about}: ${reasonOf(signal)}`)
    const id = await this.store.withTransaction(async (tx) => {
      const asking = await tx.pollRequests.ask({ connectionId, kind, arguments: args, actor: asked.actor ?? null, askedBy: this.options.holder, deadlineMs })
      await tx.notifications.send('ew_poll_requests', connectionId)
      return asking
    })
    asked.onAsked?.()
    const row = await this.answered(id, deadlineMs, signal)
    if (row === null) throw new Error(`the request to ${about} is gone: the connection was removed meanwhile`)
    if (row.answeredAt !== null) return this.outcome(kind, row, about)
    // No answer in time (or the wait was cut short): withdrawn, unless its holder took it.
    const cut = signal?.aborted ? `this server stopped waiting (${reasonOf(signal)})` : `no answer came within ${seconds(deadlineMs)}`
    if (await this.store.withTransaction((tx) => tx.pollRequests.withdraw(id, `withdrawn by its asker: ${cut}`))) {
      throw new Error(
        signal?.aborted
          ? `this server stopped waiting for the server polling ${asked.connectionName} to ${about} (${reasonOf(signal)}); the request was withdrawn and will not run`
          : `no server took the request to ${about} within ${seconds(deadlineMs)}: ${holderWords(asked.holder)}; the request was withdrawn and will not run`
      )
    }
    const now = await this.store.read.pollRequests.get(id)
    if (now?.answeredAt != null) return this.outcome(kind, now, about)
    const taker = now?.claimedBy ?? asked.holder ?? 'the server polling it'
    throw new Error(
      signal?.aborted
        ? `this server stopped waiting for ${taker} to ${about} (${reasonOf(signal)}); it took the request and may still run it`
        : `${taker} took the request to ${about} but did not answer within ${seconds(deadlineMs)}: it stopped answering mid-request (stalled or stopped), and the request will not run again`
    )
  }

  /** Stops listening; every wait under way ends at once, its request withdrawn. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('this server is stopping'))
    await this.unlisten()
  }

  /** The row once answered, or as it is at the deadline (or when `signal` aborts); null if gone. */
  private async answered(id: number, deadlineMs: number, signal: AbortSignal | undefined): Promise<PollRequest | null> {
    const timers = this.options.timers ?? realTimers
    let wake = (): void => undefined
    this.waiting.set(id, () => wake())
    let timedOut = false
    const deadline = timers.setTimeout(() => {
      timedOut = true
      wake()
    }, deadlineMs)
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => (wake = resolve))
        const row = await this.store.read.pollRequests.get(id)
        if (row === null || row.answeredAt !== null || timedOut || signal?.aborted) return row
        const again = timers.setTimeout(() => wake(), READ_AGAIN_MS)
        await abortable(woken, signal).catch(() => undefined)
        timers.clearTimeout(again)
      }
    } finally {
      timers.clearTimeout(deadline)
      this.waiting.delete(id)
    }
  }

  /** The holder's answer as the kind's result, or its error in one sentence. */
  private outcome<K extends PollRequestKind>(kind: K, row: PollRequest, about: string): PollAnswer<K> {
    const by = row.claimedBy ?? 'the server polling it'
    if (row.error !== null) throw new Error(row.claimedBy === null ? row.error : `${by} could not ${about}: ${row.error}`)
    const answer = POLL_REQUEST_KINDS[kind].answer.safeParse(row.answer)
    if (!answer.success) throw new Error(`${by} answered the request to ${about} with something this server cannot read (${answer.error.issues[0]?.message ?? 'not its shape'})`)
    return answer.data as PollAnswer<K>
  }
}

/** Why nobody took a request, from who held its connection when it was asked. */
const holderWords = (holder: string | null): string =>
  holder === null
    ? 'nobody held the connection (a server takes it over within a lease)'
    : `its holder ${holder} stopped answering (stalled, stopping, or cut off from the database)`

const reasonOf = (signal: AbortSignal): string => (signal.reason instanceof Error ? signal.reason.message : 'cancelled')
