// Where an export's file is put together. The panel feeds it each chunk of records as it
// arrives, then asks for the file. In a worker (worker-assembler.ts) the page never waits on it;
// here, in the page, for where no worker can start, it pauses between slices so the window
// keeps answering (one huge record still takes its own time).
import { ExportCancelled } from './fetch-chunks'
import { ExportBuilder, MIME, type AssembleOptions, type ExportFormat } from './assemble'

export interface ExportAssembler {
  /** 'worker': off the page's thread; 'page': in slices on it. */
  readonly where: 'worker' | 'page'
  add(records: Record<string, unknown>[]): void
  /** The file; an abort of `signal` stops it with ExportCancelled. */
  finish(signal?: AbortSignal): Promise<Blob>
  /** Lets go of the records (and the worker). */
  dispose(): void
}

/** Parts between two pauses: a few milliseconds of work. */
const SLICE = 500

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

export function assembleInPage(format: ExportFormat, options: AssembleOptions = {}): ExportAssembler {
  let builder: ExportBuilder | null = new ExportBuilder(format, options)
  const live = (): ExportBuilder => {
    if (!builder) throw new Error('this export was already finished or cancelled')
    return builder
  }
  return {
    where: 'page',
    add: (records) => live().add(records),
    async finish(signal) {
      const parts: string[] = []
      for (const part of live().parts()) {
        parts.push(part)
        if (parts.length % SLICE === 0) {
          await pause()
          if (signal?.aborted) throw new ExportCancelled()
        }
      }
      return new Blob(parts, { type: MIME[format] })
    },
    dispose() {
      builder = null
    }
  }
}
