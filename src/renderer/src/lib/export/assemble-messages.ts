// What the page and the export worker (assemble.worker.ts) say to each other.
import type { AssembleOptions, ExportFormat } from './assemble'

export type ToWorker =
  | { type: 'start'; format: ExportFormat; options: AssembleOptions }
  | { type: 'add'; records: Record<string, unknown>[] }
  | { type: 'finish' }

export type FromWorker =
  /** Sent as soon as the worker's script runs: a worker that never says it cannot be used. */
  | { type: 'ready' }
  | { type: 'done'; blob: Blob }
  | { type: 'failed'; message: string }
