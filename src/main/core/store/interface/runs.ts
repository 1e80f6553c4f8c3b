// The sync runs and diagnostics concern of the Store: what each pass did, and what went wrong
// talking to the service (never a secret: messages come from ApiError).
import type { DiagnosticEntry, ListedDiagnostic } from '../diagnostics'
import type { SyncRun, SyncRunKind, SyncRunResult } from '../sync-runs'

export type { DiagnosticEntry, ListedDiagnostic, SyncRun, SyncRunKind, SyncRunResult }

export interface RunReads {
  /** The connection's runs, newest first, at most `limit`. */
  list(connectionId: string, limit?: number): Promise<SyncRun[]>
  lastFinished(connectionId: string): Promise<SyncRun | null>
  /** Problems, newest first, at most `limit` (of one connection, or of all). */
  diagnostics(limit?: number, connectionId?: string | null): Promise<ListedDiagnostic[]>
}

export interface RunStore extends RunReads {
  /** The run's id, for finish. */
  start(connectionId: string, kind: SyncRunKind, startedAt: number): Promise<number>
  /** False when the run is unknown (pruned, or its connection removed). */
  finish(id: number, result: SyncRunResult, finishedAt: number): Promise<boolean>
  /** Every run of the connection not finished yet, finished as `stopped` with `why` (a new lease
   *  holder's: the runs its predecessor left open are over). How many. */
  stopUnfinished(connectionId: string, why: string, finishedAt: number): Promise<number>
  recordDiagnostic(entry: Omit<DiagnosticEntry, 'id'>): Promise<void>
}
