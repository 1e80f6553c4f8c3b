// One gate for every request the app sends, across all connections: at most N in flight, at
// most R started per second, and a connection the service rate-limited waits as a whole (not
// just the one request that got the 429). Every wait here ends at once when the caller's signal
// aborts, and no request starts after it.
import { cancellation, sleep as abortableSleep, throwIfAborted } from '../net/abort'

export interface LimiterOptions {
  maxInFlight?: number
  perSecond?: number
  clock?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

export class RequestLimiter {
  private inFlight = 0
  private readonly waiting: { grant: () => void }[] = []
  private readonly startTimes: number[] = []
  private readonly pausedUntil = new Map<string, number>()
  private readonly maxInFlight: number
  private readonly perSecond: number
  private readonly clock: () => number
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>

  constructor(options: LimiterOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? 4
    this.perSecond = options.perSecond ?? 10
    this.clock = options.clock ?? Date.now
    this.sleep = options.sleep ?? abortableSleep
  }

  /** Runs `request` for connection `key` once the gates allow it. */
  async run<T>(key: string, request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.waitForConnection(key, signal)
    await this.acquireSlot(signal)
    try {
      await this.waitForRate(signal)
      throwIfAborted(signal)
      return await request()
    } finally {
      this.releaseSlot()
    }
  }

  /** The service asked this connection to wait: hold all its requests that long. */
  backOff(key: string, ms: number): void {
    const until = this.clock() + ms
    if (until > (this.pausedUntil.get(key) ?? 0)) this.pausedUntil.set(key, until)
  }

  /** Milliseconds this connection still has to wait, 0 when it may go. */
  backOffRemaining(key: string): number {
    return Math.max(0, (this.pausedUntil.get(key) ?? 0) - this.clock())
  }

  private async waitForConnection(key: string, signal: AbortSignal | undefined): Promise<void> {
    for (let wait = this.backOffRemaining(key); wait > 0; wait = this.backOffRemaining(key)) await this.sleep(wait, signal)
  }

  private acquireSlot(signal: AbortSignal | undefined): Promise<void> {
    throwIfAborted(signal)
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++
      return Promise.resolve()
    }
    return new Promise((resolve, reject) => {
      // The slot is handed over by releaseSlot; a caller that stops waiting leaves the queue.
      const onAbort = (): void => {
        const at = this.waiting.indexOf(waiter)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(cancellation(signal as AbortSignal))
      }
      const waiter = {
        grant: (): void => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        }
      }
      this.waiting.push(waiter)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  private releaseSlot(): void {
    const next = this.waiting.shift()
    if (next) next.grant()
    else this.inFlight--
  }

  /** A sliding one-second window of start times. */
  private async waitForRate(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = this.clock()
      while (this.startTimes.length > 0 && (this.startTimes[0] as number) <= now - 1000) this.startTimes.shift()
      if (this.startTimes.length < this.perSecond) {
        this.startTimes.push(now)
        return
      }
      await this.sleep((this.startTimes[0] as number) + 1000 - now, signal)
    }
  }
}
