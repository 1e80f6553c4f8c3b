// Sign-in attempts, counted per client address: after MAX_FAILURES wrong tokens within the window
// that address waits, so a token cannot be guessed by trying (it could not anyway: 256 bits; this
// keeps a script from hammering the server and the log).
export const MAX_FAILURES = 10
export const WINDOW_MS = 15 * 60_000

export class SignInLimiter {
  private readonly failures = new Map<string, number[]>()

  constructor(private readonly clock: () => number = Date.now) {}

  /** Seconds this address must wait before trying again; 0 when it may try now. */
  waitSeconds(address: string): number {
    const recent = this.recent(address)
    if (recent.length < MAX_FAILURES) return 0
    return Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - this.clock()) / 1000))
  }

  failed(address: string): void {
    const recent = this.recent(address)
    recent.push(this.clock())
    this.failures.set(address, recent)
  }

  /** A right token clears the address's count. */
  succeeded(address: string): void {
    this.failures.delete(address)
  }

  private recent(address: string): number[] {
    const since = this.clock() - WINDOW_MS
    const kept = (this.failures.get(address) ?? []).filter((at) => at > since)
    if (kept.length === 0) this.failures.delete(address)
    // A flood of addresses must not grow the map without end: forget the oldest.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string)
    return kept
  }
}
