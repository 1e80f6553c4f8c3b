// The live sessions as the core last told the desktop: the board read once, then patched by each
// sessionsChanged push (its rows replace or join by key, its removed keys leave). A push no newer
// than what is held changes nothing; pushes heard while the board is being read wait for it.
import type { LiveBoard, LiveSession, SessionsChanged } from '../../shared/domain'
import { patchSessions } from '../../shared/live-board'

export class LiveRows {
  private held: { revision: number; rows: LiveSession[] } | undefined
  private waiting: SessionsChanged[] = []

  /** Whether a board was read: until then the rows are not known (and the board is asked again). */
  get loaded(): boolean {
    return this.held !== undefined
  }

  get sessions(): LiveSession[] {
    return [...(this.held?.rows ?? [])]
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
    this.held = { revision: board.revision, rows: board.sessions }
    for (const change of waiting) this.patch(change)
  }

  /** Applies a push; returns whether the rows changed. */
  patch(change: SessionsChanged): boolean {
    if (!this.held) {
      this.waiting.push(change)
      return false
    }
    if (change.revision <= this.held.revision) return false
    this.held = { revision: change.revision, rows: patchSessions(this.held.rows, change) }
    return true
  }
}
