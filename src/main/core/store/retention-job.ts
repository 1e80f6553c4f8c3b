// Runs retention in the background of a core: every `intervalMs` (setTimeout, injectable), one
// short unit of work of the Store at a time with a turn of the event loop (setImmediate) between
// them, so requests, the UI's queries and the pollers' units interleave with a big prune; then,
// where the backend wants it, its compaction (SQLite: sqlite/compaction.ts), a step at a time.
import { realTimers, type Timers } from '../../../shared/timers'
import type { CompactResult } from './compact'
import type { Store } from './interface/store'
import { countBatch, emptyCounts, pruneSteps, type PruneCounts, type PruneOptions } from './retention'
import type { RetentionSettings } from './settings'

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** What a run did: the prune's counts, and the compaction's result where there was one. */
export interface PruneResult extends PruneCounts {
  compact: CompactResult
}

export interface RetentionJobOptions extends PruneOptions {
  /** Where the settings come from at each run (default: the Store's settings). */
  settings?: () => RetentionSettings
  /** After the prune: the backend's compaction, as steps (none: nothing to give back). */
  compaction?: () => AsyncGenerator<void, CompactResult>
  clock?: () => number
  timers?: Timers
  /** Between two units (default: one setImmediate). */
  yieldBetween?: () => Promise<void>
  onPruned?: (result: PruneResult) => void
  onError?: (error: unknown) => void
}

/** Runs a generator of steps, pausing before each; stops early when told. */
async function drive<R>(steps: AsyncGenerator<unknown, R>, pause: () => Promise<void>, cancelled: () => boolean): Promise<R | undefined> {
  let step = await steps.next()
  while (!step.done) {
    await pause()
    if (cancelled()) {
      await steps.return(undefined as never)
      return undefined
    }
    step = await steps.next()
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
    private readonly store: Store,
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

  /** No further runs; a run under way stops after its unit in hand, which commits. */
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
    const settings = this.options.settings?.() ?? (await this.store.read.settings.get('retention'))
    // Counted as the batches go, so a run cut short by stop() still says what it did.
    const counts = emptyCounts()
    const onBatch = this.options.onBatch
    await drive(
      pruneSteps(this.store, settings, this.clock(), {
        ...this.options,
        onBatch: (batch) => {
          countBatch(counts, batch)
          onBatch?.(batch)
        }
      }),
      this.yieldBetween,
      () => this.cancelled
    )
    const compaction = this.options.compaction
    const compacted = this.cancelled || !compaction ? undefined : await drive(compaction(), this.yieldBetween, () => this.cancelled)
    return { ...counts, compact: compacted ?? NOT_COMPACTED }
  }
}

const NOT_COMPACTED: CompactResult = Object.freeze({ freePages: 0, pagesBefore: 0, pagesAfter: 0, vacuum: 'none', checkpointed: false })
