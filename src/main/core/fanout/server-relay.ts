// Pushes across servers (docs/scaling-plan.md section 3): what the units of work of every server
// on the database change reaches this server's faces, from LISTEN/NOTIFY. On each `ew_alerts`
// notification (a revision) the core catches up on the alerts pushes it has not heard
// (alert-catch-up.ts: the rows, the alerts, the situation — a push carries data); on `ew_board`
// (a connection id) its board is published for that connection, the notifications of ~200 ms
// gathered (board-follower.ts), and so it is for the connections of each alerts push relayed
// (an acknowledgement changes a row's alert). When the listening connection was lost and is back,
// what was notified meanwhile is read again: the alerts since the last revision heard, the whole
// board (a diff). Only for a store with notifications (PostgreSQL): a core on SQLite is the one
// server of its file, and pushes everything itself.
import type { Timers } from '../../../shared/timers'
import type { Store } from '../store/interface/store'
import { AlertCatchUp, type RelayedPush } from './alert-catch-up'
import { BoardFollower } from './board-follower'

/** The core a relay feeds: the Monitor (app/monitor.ts), as far as following goes. */
export interface RelayedCore {
  followOthers(catchUp: AlertCatchUp): Promise<void>
  heardOthers(revision?: number): Promise<void>
  readonly board: { publish(only?: { connections: readonly string[] }): Promise<void> }
}

export interface RelayOptions {
  clock: () => number
  /** How long board notifications are gathered (default BOARD_GATHER_MS, 200 ms). */
  boardDelayMs?: number
  timers?: Timers
  /** Rows of alert changes read at a time. */
  pageSize?: number
  /** Where what went wrong is said, in one sentence (default: stderr). */
  say?: (line: string) => void
}

/** The connections a relayed push's alerts belong to: their rows show those alerts. */
const connectionsOf = ({ said }: RelayedPush): string[] => [
  ...new Set([...said.changed, ...said.fired, ...said.resolved, ...said.repeated].map((alert) => alert.connectionId))
]

/** A notification's revision, or none when the payload is not one (then: catch up to now). */
const revisionOf = (payload: string): number | undefined => (/^\d{1,15}$/.test(payload) ? Number(payload) : undefined)

const causeOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

export class ServerRelay {
  private constructor(
    private readonly stops: (() => Promise<void>)[],
    private readonly board: BoardFollower,
    private readonly pending: Set<Promise<void>>
  ) {}

  /**
   * Starts relaying to `core` what the other servers on `store`'s database notify: listening
   * first, then following from the revision now, so nothing committed in between is missed.
   * Rejects when the store has no notifications (SQLite), and when the store closes first.
   */
  static async start(store: Store, core: RelayedCore, options: RelayOptions): Promise<ServerRelay> {
    const notifications = store.notifications
    if (!notifications) throw new Error('this store delivers no notifications (SQLite: one server per file), so there is nothing to relay')
    const say = options.say ?? ((line: string) => console.error(`eventwatch: ${line}`))
    const pending = new Set<Promise<void>>()
    /** Runs `work` without awaiting it; what it throws is said, and the next notification tries again. */
    const meanwhile = (what: string, work: Promise<void>): void => {
      const tracked = work.catch((error: unknown) => say(`${what} failed (${causeOf(error)}); the next notification tries again`))
      pending.add(tracked)
      void tracked.finally(() => pending.delete(tracked))
    }
    const board = new BoardFollower(core.board, {
      delayMs: options.boardDelayMs,
      timers: options.timers,
      failed: (error) => say(`publishing the board for other servers' changes failed (${causeOf(error)})`)
    })
    const stops: (() => Promise<void>)[] = []
    try {
      stops.push(
        await notifications.listen('ew_alerts', {
          notified: (payload) => meanwhile("reading other servers' alerts pushes", core.heardOthers(revisionOf(payload))),
          resumed: () => meanwhile("reading other servers' alerts pushes after a reconnection", core.heardOthers()),
          dropped: (cause) => say(cause.message)
        }),
        await notifications.listen('ew_board', {
          notified: (connectionId) => board.follow([connectionId]),
          resumed: () => meanwhile('publishing the whole board after a reconnection', core.board.publish())
        })
      )
      const catchUp = new AlertCatchUp(store.read, options.clock, { pageSize: options.pageSize, relayed: (push) => board.follow(connectionsOf(push)) })
      await core.followOthers(catchUp)
    } catch (error) {
      for (const stop of stops) await stop()
      await board.stop()
      throw error
    }
    return new ServerRelay(stops, board, pending)
  }

  /** Settles once what was heard so far has been pushed: the alerts caught up, the board published. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending)
    await this.board.published()
  }

  /** Stops listening and publishing; waits for what is under way. */
  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) await stop()
    await this.board.stop()
    await this.settled()
  }
}
