// Opens an export's assembler in a module worker (assemble.worker.ts), so the page's thread
// only passes each chunk of records on. Where no worker starts (it must say "ready" first), the
// export is assembled in the page instead, in slices (assembler.ts): slower for the window, but
// the file is the same.
import type { AssembleOptions, ExportFormat } from './assemble'
import type { FromWorker, ToWorker } from './assemble-messages'
import { assembleInPage, type ExportAssembler } from './assembler'
import { ExportCancelled } from './fetch-chunks'

/** A worker that has not started by then is taken as one that never will. */
const READY_WITHIN_MS = 10_000

function startWorker(): Worker | null {
  try {
    // Written out in full so Vite sees it and bundles the worker as a file of its own.
    return new Worker(new URL('./assemble.worker.ts', import.meta.url), { type: 'module' })
  } catch {
    return null
  }
}

function whenReady(worker: Worker): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), READY_WITHIN_MS)
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      clearTimeout(timer)
      resolve(event.data.type === 'ready')
    }
    worker.onerror = (event) => {
      event.preventDefault()
      clearTimeout(timer)
      resolve(false)
    }
  })
}

function inWorker(worker: Worker): ExportAssembler {
  const send = (message: ToWorker): void => worker.postMessage(message)
  let failure: Error | null = null
  let settle: ((outcome: Blob | Error) => void) | null = null
  const fail = (error: Error): void => {
    failure ??= error
    settle?.(error)
  }
  worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
    if (data.type === 'done') settle?.(data.blob)
    else if (data.type === 'failed') fail(new Error(`the file could not be assembled: ${data.message}`))
  }
  worker.onerror = (event) => {
    event.preventDefault()
    fail(new Error(`the file could not be assembled: the export worker stopped (${event.message || 'no reason given'})`))
  }
  return {
    where: 'worker',
    add: (records) => send({ type: 'add', records }),
    finish: (signal) =>
      new Promise<Blob>((resolve, reject) => {
        if (failure) return reject(failure)
        if (signal?.aborted) return reject(new ExportCancelled())
        const onAbort = (): void => {
          worker.terminate()
          reject(new ExportCancelled())
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        settle = (outcome) => {
          signal?.removeEventListener('abort', onAbort)
          if (outcome instanceof Blob) resolve(outcome)
          else reject(outcome)
        }
        send({ type: 'finish' })
      }),
    dispose: () => worker.terminate()
  }
}

/** An assembler for one export, in a worker when one starts, else in the page. */
export async function openAssembler(format: ExportFormat, options: AssembleOptions): Promise<ExportAssembler> {
  const worker = startWorker()
  if (worker && (await whenReady(worker))) {
    const assembler = inWorker(worker)
    worker.postMessage({ type: 'start', format, options } satisfies ToWorker)
    return assembler
  }
  worker?.terminate()
  return assembleInPage(format, options)
}
