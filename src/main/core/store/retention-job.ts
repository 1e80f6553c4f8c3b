// Runs retention in the background of the app's own process: every `intervalMs` (setTimeout,
// injectable), one short transaction at a time with a turn of the event loop (setImmediate)
// between them, so IPC, the UI's queries and the poller's writes interleave with a big prune.
import { realTimers, type Timers } from '../../../shared/timers'
import type { Db } from './db'
import { compactSteps, type CompactOptions, type CompactResult } from './compact'
import { countBatch, emptyCounts, pruneSteps, type PruneOptions, type PruneResult } from './retention'
import { getRetentionSettings, type RetentionSettings } from './settings'

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export interface RetentionJobOptions extends PruneOptions, CompactOptions {
  /** Where the settings come from at each run (default: the settings table). */
  settings?: () => RetentionSettings
  clock?: () => number
  timers?: Timers
  /** Between two transactions (default: one setImmediate). */
  yieldBetween?: () => Promise<void>
  onPruned?: (result: PruneResult) => void
  onError?: (error: unknown) => void
}

/** Runs a generator of synchronous steps, pausing between them; stops early when told. */
async function drive<R>(steps: Generator<unknown, R>, pause: () => Promise<void>, cancelled: () => boolean): Promise<R | undefined> {
  let step = steps.next()
  while (!step.done) {
    await pause()
    if (cancelled()) {
      steps.return(undefined as never)
      return undefined
    }
    step = steps.next()
  }
  return step.value
}

export class RetentionJob {
  private timer: unknown = null
  private intervalMs = 0
  private running: Promise<PruneResult> | null = null
  private cancelled = false
  private readonly clock: () => number
  private readonly timers: Timers
  private readonly yieldBetween: () => Promise<void>

  constructor(
    private readonly db: Db,
    private readonly options: RetentionJobOptions = {}
  ) {
    this.clock = options.clock ?? Date.now
    this.timers = options.timers ?? realTimers
    this.yieldBetween = options.yieldBetween ?? nextTurn
  }

  /** Runs after `firstDelayMs`, then `intervalMs` after each run ends, until stop(). */
  start(intervalMs: number, firstDelayMs = 0): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
    this.intervalMs = intervalMs
    this.cancelled = false
    this.schedule(firstDelayMs)
  }

  /** No further runs; a run under way stops after its transaction in hand, which commits. */
  async stop(): Promise<void> {
    this.cancelled = true
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
    this.timer = null
    await this.running?.catch(() => undefined)
  }

  /** One run now, sharing a run already under way. */
  runNow(): Promise<PruneResult> {
    this.running ??= this.run().finally(() => {
      this.running = null
    })
    return this.running
  }

  private schedule(ms: number): void {
    if (this.cancelled) return
    this.timer = this.timers.setTimeout(() => {
      this.timer = null
      this.runNow()
        .then((result) => this.options.onPruned?.(result))
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => this.schedule(this.intervalMs))
    }, ms)
  }

  private async run(): Promise<PruneResult> {
    const settings = this.options.settings?.() ?? getRetentionSettings(this.db)
    // Counted as the batches go, so a run cut short by stop() still says what it did.
    const counts = emptyCounts()
    const onBatch = this.options.onBatch
    await drive(
      pruneSteps(this.db, settings, this.clock(), {
        ...this.options,
        onBatch: (batch) => {
          countBatch(counts, batch)
          onBatch?.(batch)
        }
      }),
      this.yieldBetween,
      () => this.cancelled
    )
    const compacted: CompactResult | undefined = this.cancelled
      ? undefined
      : await drive(compactSteps(this.db, this.options), this.yieldBetween, () => this.cancelled)
    return { ...counts, compact: compacted ?? NOT_COMPACTED }
  }
}

const NOT_COMPACTED: CompactResult = Object.freeze({ freePages: 0, pagesBefore: 0, pagesAfter: 0, vacuum: 'none', checkpointed: false })
