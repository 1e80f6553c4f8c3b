// The board of this server following other servers' units (docs/scaling-plan.md section 3, "The
// board"): each names the connection whose live rows it changed (ew_board). PostgreSQL folds
// identical notifications only within one transaction, and a poll is several units, so the
// connections named are gathered for a moment (BOARD_GATHER_MS) and then the board is published for
// them once: a diff against what this server pushed, with this server's own revision.
import { realTimers, type Timers } from '../../../shared/timers'

/** How long the connections named are gathered: the units of one poll land within it, and it is a
 *  small part of the 1 s a push may take from a commit on one server to the streams of another
 *  (measured by `npm run bench -- team`; at 500 ms the publish that follows left too little). */
export const BOARD_GATHER_MS = 200

/** The board, as far as following goes: LiveBoard.publish for every row of some connections. */
export interface FollowingBoard {
  publish(only: { connections: readonly string[] }): Promise<void>
}

export interface BoardFollowerOptions {
  /** How long the connections named are gathered before the board is published for them. */
  delayMs?: number
  timers?: Timers
  /** A publish that failed (the database, in words): the next notification publishes again. */
  failed?(error: unknown): void
}

export class BoardFollower {
  private readonly named = new Set<string>()
  private timer: unknown = null
  private publishing: Promise<void> = Promise.resolve()
  private stopped = false
  private readonly timers: Timers

  constructor(
    private readonly board: FollowingBoard,
    private readonly options: BoardFollowerOptions = {}
  ) {
    this.timers = options.timers ?? realTimers
  }

  /** Other servers changed these connections' rows: publish them soon, with any named meanwhile. */
  follow(connections: Iterable<string>): void {
    if (this.stopped) return
    for (const id of connections) this.named.add(id)
    if (this.timer !== null || this.named.size === 0) return
    this.timer = this.timers.setTimeout(() => this.publishNamed(), this.options.delayMs ?? BOARD_GATHER_MS)
    // A pending publish must not keep the process alive on its own.
    ;(this.timer as { unref?: () => void } | null)?.unref?.()
  }

  /** Settles once every publish begun so far has. */
  async published(): Promise<void> {
    await this.publishing
  }

  /** Nothing more is published; waits for a publish under way. */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
    this.timer = null
    this.named.clear()
    await this.publishing
  }

  private publishNamed(): void {
    this.timer = null
    const connections = [...this.named]
    this.named.clear()
    this.publishing = this.publishing
      .then(() => this.board.publish({ connections }))
      .catch((error: unknown) => this.options.failed?.(error))
  }
}
