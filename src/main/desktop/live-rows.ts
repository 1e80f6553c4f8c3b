// The live sessions as the core last told the desktop: the board read once, then patched by each
// sessionsChanged push (its rows replace or join by key, its removed keys leave). A push no newer
// than what is held changes nothing; pushes heard while the board is being read wait for it; a
// push of a new epoch (the core restarted) or after a gap makes the board unknown, to be read
// again whole (shared/revisions.ts: the one rule of every face).
import type { LiveBoard, LiveSession, SessionsChanged } from '../../shared/domain'
import { patchSessions } from '../../shared/live-board'
import { boardPushStep, stampOf, type Revised } from '../../shared/revisions'

export class LiveRows {
  private held: { stamp: Revised; rows: LiveSession[] } | undefined
  /** The rows of a board that must be read again: still shown until the new one answers. */
  private stale: LiveSession[] = []
  private waiting: SessionsChanged[] = []

  /** Whether a board was read: until then the rows are not known (and the board is asked again). */
  get loaded(): boolean {
    return this.held !== undefined
  }

  get sessions(): LiveSession[] {
    return [...(this.held?.rows ?? this.stale)]
  }

  /** A read of the board begins: the pushes from now on wait for its answer. */
  reading(): void {
    this.waiting = []
  }

  /** The board's answer (undefined: none came; the next read starts afresh). */
  load(board: LiveBoard | undefined): void {
    const waiting = this.waiting
    this.waiting = []
    if (!board) return
    this.held = { stamp: stampOf(board), rows: board.sessions }
    for (const change of waiting) this.patch(change)
  }

  /** Applies a push; returns whether the rows changed (or must be read again). */
  patch(change: SessionsChanged): boolean {
    if (!this.held) {
      this.waiting.push(change)
      return false
    }
    const step = boardPushStep(this.held.stamp, change)
    if (step === 'ignore') return false
    if (step === 'reread') {
      this.stale = this.held.rows
      this.held = undefined
      return true
    }
    this.held = { stamp: stampOf(change), rows: patchSessions(this.held.rows, change) }
    return true
  }
}
