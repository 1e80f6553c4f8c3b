// Problems a unit of work met while it fetched, as diagnostics not yet stored. The network is
// never awaited inside a unit of the Store, so they are written with what came back, in the
// unit that stores it (or in one of their own), never on their own while the fetching goes on.
import type { DiagnosticEntry } from '../store/interface/runs'
import type { Store, Tx } from '../store/interface/store'

export type PendingDiagnostic = Omit<DiagnosticEntry, 'id'>

export class PendingDiagnostics {
  private readonly entries: PendingDiagnostic[] = []

  constructor(private readonly store: Store) {}

  add(entry: PendingDiagnostic): void {
    this.entries.push(entry)
  }

  /**
   * Runs `work` as one unit of work with the diagnostics held when it runs: they commit together,
   * and are held again (for the next unit) if it rolls back.
   */
  async commit<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let taken: PendingDiagnostic[] = []
    try {
      return await this.store.withTransaction(async (tx) => {
        const result = await work(tx)
        taken = this.entries.splice(0)
        for (const entry of taken) await tx.runs.recordDiagnostic(entry)
        return result
      })
    } catch (error) {
      this.entries.unshift(...taken)
      throw error
    }
  }

  /** The diagnostics held, in a unit of their own (none held: no unit). */
  async flush(): Promise<void> {
    if (this.entries.length > 0) await this.commit(async () => undefined)
  }
}

/**
 * One diagnostic as a unit of its own, not awaited by what met the problem (nor failing it): a
 * client's retry, an app's own trouble. Said on stderr, with its cause, if it cannot be stored.
 */
export function recordDiagnosticAside(store: Store, entry: PendingDiagnostic): void {
  store.withTransaction((tx) => tx.runs.recordDiagnostic(entry)).catch((error: unknown) => {
    console.error(`eventwatch: a diagnostic (${entry.endpoint}) could not be stored`, error)
  })
}
