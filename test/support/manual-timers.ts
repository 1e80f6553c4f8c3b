// Timers that fire only when a test moves time, sharing one clock with the simulator.
import type { Timers } from '../../src/shared/timers'

export class ManualTimers implements Timers {
  private pending: { id: number; at: number; callback: () => void }[] = []
  private nextId = 1

  constructor(public now: number) {}

  clock = (): number => this.now

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++
    this.pending.push({ id, at: this.now + ms, callback })
    return id
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((t) => t.id !== handle)
  }

  get scheduled(): number[] {
    return this.pending.map((t) => t.at).sort((a, b) => a - b)
  }

  /** Moves time forward by `ms`, firing due timers in order; `settle` runs after each one. */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const target = this.now + ms
    for (;;) {
      const due = this.pending.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.pending = this.pending.filter((t) => t !== due)
      this.now = Math.max(this.now, due.at)
      due.callback()
      await settle()
    }
    this.now = target
  }
}
