// The cache writer: a worker thread with its own connection to the cache file, storing viewer
// pages while this thread goes on fetching and parsing the next ones. On two cores that halves
// the time of a large sync (parsing and storing cost about the same). SQLite's WAL lets the two
// connections share the file; pages are staged and lists swapped in whole (viewer-staging.ts).
//
// What crosses the thread boundary is each page's flat rows, built here straight into typed
// arrays that move rather than copy (viewer-rows.ts, row-transfer.ts).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { transferList, type EncodedRows } from './row-transfer'
import { encodedViewerRows } from './viewer-rows'
import type { StageOp } from './viewer-staging'
import { viewerListStore, type StoreOp, type ViewerListStore } from './viewer-store'

export interface ViewerWriterOptions {
  /** The cache file, already opened (and so migrated) by the caller. */
  file: string
  /** A better-sqlite3 binary built for this runtime (the Electron app has its own). */
  nativeBinding?: string
}

export interface ViewerWriterHooks {
  /** Once, when the writer's thread is gone for good (it failed to start, crashed, exited). */
  onBroken?: (error: Error) => void
}

/** A stage operation as sent: a page's rows encoded (row-transfer.ts). */
export type SentStageOp = Exclude<StageOp, { type: 'page' }> | (Omit<Extract<StageOp, { type: 'page' }>, 'rows'> & { rows: EncodedRows })

export type WriterRequest = { type: 'stage'; id: number; op: SentStageOp } | { type: 'close' }

export type WriterReply =
  | { id: number; ok: true; value: number | undefined }
  | { id: number; ok: false; error: { name: string; message: string; code?: string } }

/** A store the writer could not make: the worker's error, rebuilt on this side. */
export class CacheWriterError extends Error {
  constructor(
    message: string,
    readonly code?: string
  ) {
    super(message)
    this.name = 'CacheWriterError'
  }
}

/**
 * The worker beside this module: the .mjs beside the CLI bundle (scripts/build-cli.js builds
 * both), or, running from the TypeScript sources, the .ts through tsx's loader (a worker does
 * not inherit a loader registered at run time, so a two-line bootstrap registers it first).
 */
function workerEntry(): { entry: URL | string; eval: boolean } {
  const here = import.meta.url
  const ext = /\.(ts|mjs|js)$/.exec(new URL(here).pathname)?.[1] ?? 'js'
  const entry = new URL(`./viewer-writer-worker.${ext}`, here)
  if (ext !== 'ts') return { entry, eval: false }
  const bootstrap = `import(${JSON.stringify(tsxEsmApi(here))}).then(({ register }) => {
    register()
    return import(${JSON.stringify(entry.href)})
  })`
  return { entry: bootstrap, eval: true }
}

/** The ESM build of tsx's API, as its package's exports map names it (the CommonJS one cannot register from a worker). */
function tsxEsmApi(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json')
  const exportsMap = JSON.parse(readFileSync(manifest, 'utf8')).exports as Record<string, { import: { default: string } }>
  return pathToFileURL(join(dirname(manifest), exportsMap['./esm/api']?.import.default ?? 'dist/esm/api/index.mjs')).href
}

interface Pending {
  resolve: (value: number | undefined) => void
  reject: (error: Error) => void
}

export function startViewerWriter(options: ViewerWriterOptions, hooks: ViewerWriterHooks = {}): ViewerListStore {
  const { entry, eval: isCode } = workerEntry()
  // Everything the writer allocates dies within one list: a small young generation keeps its
  // memory down (about 30 MB less peak RSS over 85,000 viewers) and costs no time.
  const worker = new Worker(entry, { workerData: options, eval: isCode, resourceLimits: { maxYoungGenerationSizeMb: 8 } })
  const pending = new Map<number, Pending>()
  let nextId = 1
  let broken: Error | null = null
  let closing = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))

  // The worker gone for good: every list in hand, and every later one, fails with the reason.
  const breakDown = (reason: string): void => {
    if (!broken) {
      broken = new CacheWriterError(`the cache writer stopped: ${reason}`)
      hooks.onBroken?.(broken)
    }
    for (const p of pending.values()) p.reject(broken)
    pending.clear()
  }
  worker.on('message', (reply: WriterReply) => {
    const p = pending.get(reply.id)
    if (!p) return
    pending.delete(reply.id)
    if (reply.ok) p.resolve(reply.value)
    else p.reject(new CacheWriterError(reply.error.message, reply.error.code))
  })
  worker.on('error', (error) => breakDown(error.message))
  worker.on('exit', (code) => {
    if (!closing || pending.size > 0) breakDown(`it exited (code ${code})`)
  })

  const backend = (op: StoreOp): Promise<number | undefined> => {
    if (broken) return Promise.reject(broken)
    if (closing) return Promise.reject(new CacheWriterError('the cache writer is closed'))
    const id = nextId++
    return new Promise<number | undefined>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      if (op.type === 'page') {
        const rows = encodedViewerRows(op.viewers)
        worker.postMessage({ type: 'stage', id, op: { type: 'page', key: op.key, rows, at: op.at } } satisfies WriterRequest, transferList(rows))
      } else {
        worker.postMessage({ type: 'stage', id, op } satisfies WriterRequest)
      }
    })
  }
  const close = async (): Promise<void> => {
    if (closing) return exited
    closing = true
    // Requests are handled in order: 'close' comes after every page already sent.
    worker.postMessage({ type: 'close' } satisfies WriterRequest)
    await exited
  }
  return viewerListStore(backend, close)
}
